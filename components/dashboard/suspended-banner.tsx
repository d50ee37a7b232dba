/** A suspended organization's every page says so, with the platform's reason; its keys are refused until it is lifted. */
export function SuspendedBanner({ reason }: { reason: string | null }) {
  return (
    <div role="alert" className="border-b border-red-300 bg-red-100 text-red-950" data-testid="suspended-banner">
      <div className="mx-auto flex max-w-6xl flex-col gap-0.5 px-4 py-2.5 text-sm sm:px-6">
        <p>
          <strong>This organization is suspended by the platform.</strong> Every API request with its keys is refused (403 organization_suspended) and
          nothing is charged. You can still sign in, see your data and buy credits.
        </p>
        {reason ? <p>Reason: {reason}</p> : null}
        <p>Contact support to have it lifted.</p>
      </div>
    </div>
  );
}
