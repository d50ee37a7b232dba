import type { PeriodicReading, PeriodicReport } from "./documents/periodic-report";
import type { Filing } from "./filings";

/**
 * For tests (ledger.test.ts, map-ledger.test.ts): a periodic report's reading
 * as a test states it, every field empty (null, or no items) but those given,
 * with the quotes given by field path ("warrants[0].shares_outstanding").
 */
export function periodicReading(period: string | null, stated: Partial<PeriodicReport> = {}, evidence: Record<string, string> = {}): PeriodicReading {
  const report: PeriodicReport = {
    form: "10-Q",
    company: "Example Co",
    file_number: null,
    period,
    shares_outstanding: null,
    going_concern: null,
    warrants: [],
    warrants_total: null,
    atm_programs: [],
    equity_lines: [],
    convertibles: [],
    reverse_splits: [],
    listing_deficiency: [],
    closings: [],
    ...stated,
  };
  return { report, evidence };
}

/** For tests: a filing of the index as a test states it. */
export const testFiling = (form: string, accessionNumber: string, filedAt: string, fileNumber: string | null = null, items = "", reportDate: string | null = null): Filing => ({
  accessionNumber,
  form,
  filedAt,
  reportDate,
  fileNumber,
  items,
  primaryDocument: null,
});
