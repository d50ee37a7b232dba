import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | null | undefined;

/**
 * A full garbage collection, now. For bulk work that allocates far more than
 * it keeps (a data import writes each chunk of records as one large
 * statement): V8 leaves large strings and buffers for its rarer full
 * collections and lets the heap grow to several times what is alive first,
 * so a 100 MB file took the process ~320 MB above where it started; collected
 * every few chunks, it stays well under that. The collector is exposed at run
 * time as jest's leak detector does; where that is refused, this does nothing.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
