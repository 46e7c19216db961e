// The one memo discipline: a value derived from an immutable object, computed on first use and held exactly as long
// as that object lives. Pure.
export { memoize, memoizeBy, memoizeOn } from "./memo.js";
export { BoundedMap } from "./bounded.js";
export { ExpiringMap } from "./expiring.js";
