import type { DbClient } from "@/lib/db";

/**
 * The dataset's version. A load that writes records bumps it in its own
 * transaction (`bumpDatasetVersion`) and, once committed, tells this process
 * (`notifyDataChanged`), so this process's caches drop at once and other
 * instances' at their next check of the stored version.
 */
const local = ((globalThis as { __dataEpoch?: { value: number } }).__dataEpoch ??= { value: 0 });

export async function bumpDatasetVersion(tx: DbClient): Promise<void> {
  await tx.$executeRaw`UPDATE dataset_versions SET version = version + 1, changed_at = now() WHERE id = 1`;
}

export function notifyDataChanged(): void {
  local.value++;
}

/** This process's count of data changes it made itself. */
export function localDataEpoch(): number {
  return local.value;
}

/** The stored version, which every instance's loads bump. */
export async function storedDatasetVersion(db: DbClient): Promise<bigint> {
  const [row] = await db.$queryRaw<{ version: bigint }[]>`SELECT version FROM dataset_versions WHERE id = 1`;
  return BigInt(row?.version ?? 0n);
}
