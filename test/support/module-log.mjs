// Preloaded with `node --import` by tests that check what a command loads: every module the process resolves is
// appended, one URL a line, to the file named by SKILLSHELF_MODULE_LOG.
import { register } from "node:module";

register(
  `data:text/javascript,${encodeURIComponent(`
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.SKILLSHELF_MODULE_LOG, resolved.url + "\\n");
  return resolved;
}`)}`,
);
