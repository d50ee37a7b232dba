import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { getApiContext } from "@/lib/api/context";
import { health } from "@/lib/api/public";
import { coverageText, dataCoverage, type DataCoverage } from "@/lib/data/records/coverage";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Status", description: "Whether the Dilution Data API and its database are answering, and which tickers the data covers." };

// A status page says how things are now.
export const dynamic = "force-dynamic";

type Check = { ok: true; latencyMs: number; coverage: DataCoverage } | { ok: false };

async function check(): Promise<Check> {
  try {
    const ctx = await getApiContext();
    const result = await health(ctx);
    return { ok: true, latencyMs: result.database.latency_ms, coverage: await dataCoverage(ctx.prisma) };
  } catch (error) {
    console.error("[status] the health check failed:", error);
    return { ok: false };
  }
}

/** /health for a person: the same check, in words. Programs keep reading /health. */
export default async function StatusPage() {
  const result = await check();
  const checkedAt = new Date();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader current="status" />
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-10 sm:px-6">
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-950">Status</h1>
        <Card className="mt-6">
          <CardHeader className="flex-row items-center justify-between gap-3">
            <CardTitle as="h2">Data API</CardTitle>
            {result.ok ? (
              <Badge tone="success" data-testid="status">
                Operational
              </Badge>
            ) : (
              <Badge tone="danger" data-testid="status">
                Not answering
              </Badge>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-3 text-sm text-zinc-700">
            {result.ok ? (
              <p>The API and its database are answering: the database replied in {result.latencyMs} ms.</p>
            ) : (
              <p>The database is not answering. Data requests get 503 with Retry-After until it is back, and nothing is charged.</p>
            )}
            {result.ok ? (
              <p data-testid="coverage">
                The data covers {coverageText(result.coverage)}.{" "}
                <Link href="/tickers" className="font-medium text-accent-700 underline">
                  See every ticker
                </Link>
                .
              </p>
            ) : null}
            <p className="text-zinc-500">
              Checked {formatDateTime(checkedAt)}. Programs can ask{" "}
              <a href="/health" className="font-mono underline">
                /health
              </a>{" "}
              for the same check as JSON.
            </p>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
