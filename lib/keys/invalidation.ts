/**
 * In-process caches of keys, plans and prices (see lib/api/key-cache.ts) hold
 * entries for at most a second. A change made in this process bumps the
 * epoch so it takes effect at once here; other instances see it when their
 * entries expire, within the second.
 */
const state = ((globalThis as { __keysEpoch?: { value: number } }).__keysEpoch ??= { value: 0 });

export function notifyAccessChanged(): void {
  state.value++;
}

export function accessEpoch(): number {
  return state.value;
}
