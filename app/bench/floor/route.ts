import { notFound } from "next/navigation";

/**
 * Bench only: the cheapest answer this build can give through Next's router,
 * the floor `npm run bench -- --http` compares the API's throughput with.
 * A server started without BENCH_FLOOR=1 answers it as an unknown path.
 */
export const dynamic = "force-dynamic";

export function GET(): Response {
  if (process.env.BENCH_FLOOR !== "1") notFound();
  return Response.json({ status: "ok" });
}
