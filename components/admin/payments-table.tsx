import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import type { PaymentState, PaymentView } from "@/lib/platform/admin/payments";
import { formatCents } from "@/lib/money";
import { formatDateTime } from "@/lib/utils/dates";

const TONES: Record<PaymentState, BadgeTone> = {
  credited: "success",
  pending: "accent",
  failed: "danger",
  expired: "neutral",
  refunded: "warning",
  disputed: "danger",
  held: "warning",
};

export function PaymentStateBadge({ payment }: { payment: Pick<PaymentView, "state" | "label" | "detail"> }) {
  return (
    <span className="inline-flex flex-col items-end gap-0.5 md:items-start">
      <Badge tone={TONES[payment.state]} data-state={payment.state}>
        {payment.label}
      </Badge>
      {payment.detail && payment.state === "pending" ? <span className="text-xs text-zinc-500">{payment.detail}</span> : null}
    </span>
  );
}

function StripeIds({ payment }: { payment: PaymentView }) {
  return (
    <span className="flex min-w-0 flex-col items-end gap-0.5 font-mono text-xs break-all text-zinc-600 md:items-start">
      {payment.source === "auto_recharge" ? (
        <>
          <span className="font-sans text-zinc-500">Auto-recharge</span>
          <span title="Auto-recharge attempt">{payment.id}</span>
        </>
      ) : (
        <span title="Checkout Session">{payment.id}</span>
      )}
      {payment.paymentIntentId ? <span title="PaymentIntent">{payment.paymentIntentId}</span> : null}
      {payment.stripeUrl ? (
        <a href={payment.stripeUrl} target="_blank" rel="noreferrer" className="font-sans text-accent-700 underline">
          Open in Stripe
        </a>
      ) : null}
      {payment.receiptUrl ? (
        <a href={payment.receiptUrl} target="_blank" rel="noreferrer" className="font-sans text-accent-700 underline">
          Receipt
        </a>
      ) : null}
    </span>
  );
}

/** Payments (Checkout top-ups, and auto-recharges where named so): when, whose, how much, where they stand, what was given back, and their Stripe ids. */
export function PaymentsTable({ payments, caption }: { payments: PaymentView[]; caption: string }) {
  return (
    <Table caption={caption} stacked>
      <THead>
        <TR>
          <TH>Created (UTC)</TH>
          <TH>Organization</TH>
          <TH className="text-right">Amount</TH>
          <TH>State</TH>
          <TH>Credited (UTC)</TH>
          <TH className="text-right">Refunded</TH>
          <TH className="text-right">Taken back</TH>
          <TH>Stripe</TH>
        </TR>
      </THead>
      <TBody>
        {payments.map((payment) => (
          <TR key={payment.id} data-session={payment.id} data-source={payment.source} data-state={payment.state}>
            <TD data-label="Created (UTC)" className="whitespace-nowrap text-zinc-600">
              <time dateTime={payment.createdAt.toISOString()}>{formatDateTime(payment.createdAt)}</time>
            </TD>
            <TD data-label="Organization" className="max-w-56 min-w-0">
              <Link href={`/admin/organizations/${payment.org.id}`} className="font-medium break-words text-accent-700 underline-offset-2 hover:underline">
                {payment.org.name}
              </Link>
              {payment.org.closed ? <span className="block text-xs text-zinc-500">closed</span> : null}
            </TD>
            <TD data-label="Amount" className="text-right whitespace-nowrap tabular-nums">
              {formatCents(payment.amountCents)}
              {payment.currency !== "usd" ? <span className="ml-1 text-xs text-zinc-500 uppercase">{payment.currency}</span> : null}
            </TD>
            <TD data-label="State">
              <PaymentStateBadge payment={payment} />
              {payment.heldReason ? <span className="mt-1 block text-xs text-amber-800">{payment.heldReason}</span> : null}
            </TD>
            <TD data-label="Credited (UTC)" className="whitespace-nowrap text-zinc-600">
              {payment.creditedAt ? <time dateTime={payment.creditedAt.toISOString()}>{formatDateTime(payment.creditedAt)}</time> : "—"}
            </TD>
            <TD data-label="Refunded" className="text-right whitespace-nowrap tabular-nums">{payment.refundedCents > 0 ? formatCents(payment.refundedCents) : "—"}</TD>
            <TD data-label="Taken back" className="text-right whitespace-nowrap tabular-nums">{payment.takenBackCents > 0 ? formatCents(payment.takenBackCents) : "—"}</TD>
            <TD data-label="Stripe" className="min-w-0 md:max-w-64">
              <StripeIds payment={payment} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
