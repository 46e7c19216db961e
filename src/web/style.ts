// The page's one stylesheet, served from /assets/style.css (the Content-Security-Policy allows no inline style).
// Colours keep a contrast of at least 4.5:1 on their background; focus is always visible.
export const STYLESHEET = `:root{color-scheme:light;--ink:#1b1f24;--muted:#4a5360;--line:#d4d9e0;--link:#0b57a4;--bg:#fff;--soft:#f3f5f8;--warn:#8a4b00;--bad:#a11d1d}
*{box-sizing:border-box}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem}
.skip:focus{left:.5rem}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.site{border-bottom:1px solid var(--line);background:var(--soft)}
header.site .bar{max-width:64rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}
header.site .brand{font-weight:700;text-decoration:none;color:var(--ink);font-size:1.15rem}
nav.main ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
form.search{display:flex;gap:.4rem;margin-left:auto}
input[type=search],input[type=password],select{font:inherit;padding:.3rem .5rem;border:1px solid var(--muted);border-radius:4px;background:var(--bg);color:var(--ink)}
button,a.button{font:inherit;padding:.3rem .8rem;border:1px solid var(--link);border-radius:4px;background:var(--link);color:#fff;cursor:pointer}
a.button{display:inline-block;text-decoration:none}
button.plain{background:var(--bg);color:var(--link)}
.viewer{display:flex;gap:.5rem;align-items:center;color:var(--muted)}
.viewer form{margin:0}
main{max-width:64rem;margin:0 auto;padding:1rem}
nav.crumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;padding:0;margin:0 0 .5rem;color:var(--muted)}
nav.crumbs li+li::before{content:"/";margin-right:.25rem}
.lede{color:var(--muted);margin-top:-.5rem}
ul.rows{list-style:none;padding:0;margin:0}
ul.rows li{padding:.55rem 0;border-bottom:1px solid var(--line)}
ul.rows .what{display:block;color:var(--muted)}
.count{color:var(--muted);font-size:.9rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
caption{text-align:left;color:var(--muted);padding:.25rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
code,pre,kbd{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:.9em}
pre{background:var(--soft);padding:.75rem;overflow:auto;border-radius:4px;white-space:pre-wrap;word-break:break-word}
td code.digest{white-space:nowrap}
article.skill{border-top:1px solid var(--line);margin-top:1rem;padding-top:.5rem}
.pager{display:flex;gap:1rem;margin:1rem 0}
.note{background:var(--soft);border-left:4px solid var(--link);padding:.5rem .75rem}
.warn{color:var(--warn)}
.bad{color:var(--bad)}
.signin label{display:block;margin:.5rem 0 .25rem}
.scroll{overflow-x:auto;max-width:100%}
footer.site{max-width:64rem;margin:2rem auto;padding:0 1rem;color:var(--muted);font-size:.9rem}
`;
