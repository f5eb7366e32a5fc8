/**
 * A record keyed by manifest names: without a prototype, so that `__proto__` is an entry like any
 * other (assigning it on a plain object would set the prototype instead) and no name (`toString`)
 * reads as present before it is set.
 */
export function namedRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
