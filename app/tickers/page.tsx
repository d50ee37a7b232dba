import type { Metadata } from "next";
import { SiteHeader } from "@/components/site-header";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getApiContext } from "@/lib/api/context";
import { coverageText, dataCoverage } from "@/lib/data/records/coverage";

export const metadata: Metadata = { title: "Tickers covered", description: "Every ticker the Dilution Data API has data for, sample or real." };

// The list follows every import, EDGAR sync and removal of the sample.
export const dynamic = "force-dynamic";

/** Every ticker the data endpoints answer for; a ticker outside it answers no records and costs nothing. */
export default async function TickersPage() {
  const coverage = await dataCoverage((await getApiContext()).prisma);
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader current="docs" />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-950">Tickers covered</h1>
        <p className="mt-3 max-w-2xl text-sm text-zinc-600" data-testid="coverage">
          The data covers {coverageText(coverage)}.{" "}
          {coverage.sample > 0
            ? "Sample tickers are generated, fictional companies that show every endpoint and rating on a fresh install; an operator replaces them with real SEC EDGAR data (npm run data:edgar, then npm run data:remove-sample). "
            : null}
          A ticker that is not listed answers no records, and such a request costs nothing.
        </p>
        <div className="mt-6">
          <Table caption="Tickers covered" stacked>
            <THead>
              <TR>
                <TH>Ticker</TH>
                <TH>Company</TH>
                <TH>Exchange</TH>
                <TH>Data</TH>
              </TR>
            </THead>
            <TBody>
              {coverage.companies.map((company) => (
                <TR key={company.ticker}>
                  <TD data-label="Ticker" className="font-mono font-medium">
                    {company.ticker}
                  </TD>
                  <TD data-label="Company">{company.name}</TD>
                  <TD data-label="Exchange">{company.exchange}</TD>
                  <TD data-label="Data">{company.isSample ? <Badge>Sample</Badge> : <Badge tone="success">Real</Badge>}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </div>
      </main>
    </div>
  );
}
