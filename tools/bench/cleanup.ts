/**
 * What to undo when the bench ends, however it ends (normally, on an error,
 * on SIGINT): the last thing set up is undone first, each step once, and a
 * step that fails does not stop the others.
 */
export class Cleanup {
  private steps: (() => unknown)[] = [];
  private running: Promise<void> | undefined;

  /** Registers `undo`; the function returned forgets it (when it was done otherwise). */
  add(undo: () => unknown): () => void {
    this.steps.push(undo);
    return () => {
      this.steps = this.steps.filter((step) => step !== undo);
    };
  }

  run(): Promise<void> {
    this.running ??= (async () => {
      while (this.steps.length) {
        const undo = this.steps.pop()!;
        try {
          await undo();
        } catch (error) {
          process.stderr.write(`cleanup: ${(error as Error).message}\n`);
        }
      }
    })();
    return this.running;
  }
}
