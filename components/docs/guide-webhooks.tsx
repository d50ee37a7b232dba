import { CodeBlock } from "@/components/ui/code-block";
import { Tabs } from "@/components/ui/tabs";
import { EVENT_TYPES } from "@/lib/notify/events";
import { Code, DocSection, DocTable, Prose, TD } from "./doc-section";

const EXAMPLE_EVENT = `{
  "type": "balance.below_threshold",
  "timestamp": "2026-11-23T14:05:11.000Z",
  "data": {
    "organization_id": "6f1c2d3b-…",
    "alert_id": "0b7e…",
    "scope": "organization",
    "threshold_dollars": "$25.00",
    "balance_dollars": "$24.981302"
  }
}`;

const PYTHON = `import base64, hashlib, hmac, time

def verify(secret: str, headers: dict, body: bytes) -> bool:
    """Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">."""
    msg_id = headers["webhook-id"]
    timestamp = headers["webhook-timestamp"]
    if abs(time.time() - int(timestamp)) > 300:  # refuse replays older than 5 minutes
        return False
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body  # the raw body, byte for byte
    expected = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(expected, sig) for sig in headers["webhook-signature"].split(" "))`;

const JAVASCRIPT = `import { createHmac, timingSafeEqual } from "node:crypto";

// Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body">.
export function verify(secret, headers, rawBody) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false; // replay window
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = "v1," + createHmac("sha256", key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest("base64");
  return headers["webhook-signature"].split(" ").some(
    (sig) => sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected)),
  );
}`;

const SHELL = `# Check a delivery you captured (body saved byte for byte in body.json):
SECRET='whsec_…'; ID='msg_…'; TS='1795441511'
printf '%s.%s.%s' "$ID" "$TS" "$(cat body.json)" \\
  | openssl dgst -sha256 -mac HMAC -macopt hexkey:$(printf '%s' "\${SECRET#whsec_}" | base64 -d | xxd -p -c 256) -binary \\
  | base64
# compare with the part after "v1," of the webhook-signature header`;

/** Alerts, webhooks, their events and how to verify a delivery. */
export function WebhooksSection() {
  return (
    <DocSection id="webhooks" title="Alerts and webhooks">
      <Prose>
        <p>
          On the dashboard&apos;s Alerts page, owners and admins set thresholds: the balance below $X, or the spend of the UTC day or
          month above $Y, for the organization or one key. A crossing is announced once, within seconds: by email to owners and admins
          (when the server has SMTP) and as a signed POST to each of the organization&apos;s webhook endpoints. The alert is armed again
          when its condition ends (a top-up, a new day or month).
        </p>
        <p>
          Endpoints must be <Code>https</Code> URLs with a public name or address, without a user name or password: not loopback,
          private, link-local, carrier-grade NAT, multicast, reserved or cloud-metadata addresses, also when written another way
          (IPv4-mapped, NAT64 or 6to4 IPv6, decimal or octal IPv4). Every address the name resolves to is checked again at every
          delivery, and redirects are not followed. A delivery that does not get a 2xx answer within 10 s is retried with growing pauses
          (10 s, 30 s, 2 min, 10 min, 30 min, then hourly and longer) for 24 hours; an endpoint whose deliveries have all failed for 24
          hours is turned off, and you are told. Deleting an endpoint cancels its deliveries still waiting. Every delivery is listed on
          the Alerts page; &quot;Send test event&quot; sends a <Code>webhook.test</Code> (at most 5 a minute per endpoint), tried once
          and not retried.
        </p>
      </Prose>
      <DocTable caption="Event types" head={["type", "when"]}>
        {Object.entries(EVENT_TYPES).map(([type, when]) => (
          <tr key={type}>
            <td className={`${TD} font-mono text-[13px] break-all text-zinc-900 sm:break-normal sm:whitespace-nowrap`}>{type}</td>
            <td className={TD}>{when}</td>
          </tr>
        ))}
      </DocTable>
      <CodeBlock title="An event" language="json" code={EXAMPLE_EVENT} />
      <Prose>
        <p>
          Deliveries follow the <a href="https://www.standardwebhooks.com">Standard Webhooks</a> convention, so its libraries verify them
          as they are. Each carries <Code>webhook-id</Code> (the same on every retry: use it to ignore duplicates),{" "}
          <Code>webhook-timestamp</Code> (Unix seconds) and <Code>webhook-signature</Code>: <Code>v1,</Code> followed by the base64
          HMAC-SHA256 of <Code>id.timestamp.body</Code> under your endpoint&apos;s secret (the base64 after <Code>whsec_</Code>, shown once
          when you add the endpoint). Verify against the raw body before parsing it, and refuse timestamps more than five minutes old.
        </p>
      </Prose>
      <Tabs
        label="Verify a delivery"
        syncKey="webhook-language"
        items={[
          { id: "python", label: "Python", content: <CodeBlock bare language="python" code={PYTHON} /> },
          { id: "javascript", label: "JavaScript", content: <CodeBlock bare language="javascript" code={JAVASCRIPT} /> },
          { id: "shell", label: "curl / shell", content: <CodeBlock bare language="bash" code={SHELL} /> },
        ]}
      />
    </DocSection>
  );
}
