import Link from "next/link";
import { Money } from "@/components/ui/money";

/** Below the owner's threshold (or below zero), every dashboard page says so. */
export function LowBalanceBanner({ balanceNanos, thresholdNanos, canBuy }: { balanceNanos: bigint; thresholdNanos: bigint | null; canBuy: boolean }) {
  const negative = balanceNanos < 0n;
  const low = thresholdNanos !== null && balanceNanos < thresholdNanos;
  if (!negative && !low) return null;
  const balance = <Money nanos={balanceNanos} use="balance" />;
  return (
    <div role="status" className={negative ? "border-b border-red-200 bg-red-50 text-red-900" : "border-b border-amber-200 bg-amber-50 text-amber-900"}>
      <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          {negative ? (
            <>
              <strong>Your balance is {balance}.</strong> Every paid API request is refused until credits are added.
            </>
          ) : (
            <>
              <strong>Low balance: {balance}</strong>, below your alert threshold of <Money nanos={thresholdNanos!} use="typed" />.
            </>
          )}
        </p>
        {canBuy ? (
          <Link href="/billing" className="font-semibold underline">
            Buy credits
          </Link>
        ) : (
          <span>Ask an owner or admin to buy credits.</span>
        )}
      </div>
    </div>
  );
}
