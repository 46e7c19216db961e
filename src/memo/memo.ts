// The one memo discipline of the project: a value derived from an immutable object (a shelf, a library, a view of
// one) is computed on first use and held exactly as long as that object lives. Nothing else is cached in a module.
import { BoundedMap } from "./bounded.js";

/** `compute(key)` once per key object; the result lives and dies with the key. */
export function memoize<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const held = new WeakMap<K, V>();
  return (key) => {
    if (held.has(key)) return held.get(key) as V;
    const value = compute(key);
    held.set(key, value);
    return value;
  };
}

/** `compute(key, context)` once per key object, with the context of its first call: for a value that depends on the
 *  key alone but is worked out through something bigger (a library's citations, resolved through the shelf it is
 *  part of). The caller vouches that every context a key comes with gives the same value. */
export function memoizeOn<K extends object, C, V>(compute: (key: K, context: C) => V): (key: K, context: C) => V {
  const held = new WeakMap<K, V>();
  return (key, context) => {
    if (held.has(key)) return held.get(key) as V;
    const value = compute(key, context);
    held.set(key, value);
    return value;
  };
}

/** `compute(key, arg)` once per key object and name of `arg` (`nameOf`), holding at most `cap` names per key, the
 *  oldest going first: names (scope keys) are few in use, and the cap only bounds memory against a flood of them. */
export function memoizeBy<K extends object, A, V>(
  cap: number,
  nameOf: (arg: A) => string,
  compute: (key: K, arg: A) => V,
): (key: K, arg: A) => V {
  const held = new WeakMap<K, BoundedMap<string, V>>();
  return (key, arg) => {
    let byName = held.get(key);
    if (byName === undefined) {
      byName = new BoundedMap(cap);
      held.set(key, byName);
    }
    const name = nameOf(arg);
    if (byName.has(name)) return byName.get(name) as V;
    const value = compute(key, arg);
    byName.set(name, value);
    return value;
  };
}
