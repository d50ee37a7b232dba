import type { DbClient } from "@/lib/db";
import { formatCount } from "@/lib/utils/format";

export interface CoveredCompany {
  ticker: string;
  name: string;
  exchange: string;
  /** A fictional company of the generated sample dataset, not a real listing. */
  isSample: boolean;
}

export interface DataCoverage {
  /** Companies the data endpoints answer for, by ticker. */
  companies: CoveredCompany[];
  sample: number;
  real: number;
}

/**
 * Which tickers the data covers, and whether they are the generated sample
 * (fictional companies, loaded on a fresh embedded database) or real
 * companies loaded from SEC EDGAR or an import. A ticker outside this list
 * answers no records, at no charge.
 */
export async function dataCoverage(db: DbClient): Promise<DataCoverage> {
  const companies = await db.company.findMany({ select: { ticker: true, name: true, exchange: true, isSample: true }, orderBy: { ticker: "asc" } });
  const sample = companies.filter((c) => c.isSample).length;
  return { companies, sample, real: companies.length - sample };
}

/** How many tickers the data covers, sample and real, without listing them. */
export async function coverageCounts(db: DbClient): Promise<Pick<DataCoverage, "sample" | "real">> {
  const rows = await db.company.groupBy({ by: ["isSample"], _count: { _all: true } });
  const count = (isSample: boolean) => rows.find((row) => row.isSample === isSample)?._count._all ?? 0;
  return { sample: count(true), real: count(false) };
}

/** "240 sample tickers (fictional companies)", "12 real tickers", "12 real and 240 sample tickers", "no tickers yet". */
export function coverageText(coverage: Pick<DataCoverage, "sample" | "real">): string {
  const { sample, real } = coverage;
  const count = formatCount;
  if (sample === 0 && real === 0) return "no tickers yet";
  if (real === 0) return `${count(sample)} sample ticker${sample === 1 ? "" : "s"} (fictional companies)`;
  if (sample === 0) return `${count(real)} real ticker${real === 1 ? "" : "s"}`;
  return `${count(real)} real and ${count(sample)} sample tickers (the sample ones are fictional companies)`;
}
