// A seeded random source for the generator and the URI mixes: the same seed gives the same shelf on every
// machine and Node version (no Math.random, no Date). splitmix32 spreads the seed, sfc32 draws.

/** splitmix32: `7` => four well-mixed 32-bit words, so nearby seeds give unrelated streams. */
function splitmix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRandom(seed) {
  const mix = splitmix32(seed);
  let a = mix(),
    b = mix(),
    c = mix(),
    d = mix();
  // sfc32: small, fast, passes PractRand far beyond what a benchmark corpus needs.
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next(); // discard the warm-up draws
  const random = {
    /** Uniform in [0, 1). */
    next,
    /** Integer in [0, n). */
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
    chance: (p) => next() < p,
    /** Log-normal around `median` (Box–Muller), clamped to [min, max]: file sizes have a long right tail. */
    logNormal(median, sigma, min = 1, max = Infinity) {
      const u = 1 - next();
      const v = next();
      const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
      return Math.min(max, Math.max(min, Math.round(median * Math.exp(sigma * z))));
    },
    /** Geometric count with the given mean, capped: files per skill are mostly few, sometimes many. */
    count(mean, cap) {
      const p = 1 / (mean + 1);
      return Math.min(cap, Math.floor(Math.log(1 - next()) / Math.log(1 - p)));
    },
    /** A deterministic shuffle (Fisher–Yates) of a copy. */
    shuffle(items) {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
  return random;
}
