import Link from "next/link";
import type { ReactNode } from "react";
import { CodeBlock } from "@/components/ui/code-block";
import { KEY_HINT_LENGTH } from "@/lib/keys";
import { Code, DocSection, DocTable, Prose, TD } from "./doc-section";

const PUBLIC_ENDPOINTS = [
  { path: "/health", purpose: "Service and database status." },
  { path: "/endpoints", purpose: "Every data endpoint with its current price per GB, page size and parameters." },
  { path: "/estimate", purpose: "What a request would cost: records, bytes and dollars. Free; try the estimator below." },
  { path: "/openapi.json", purpose: "The OpenAPI 3.1 description, for client generators and API tools." },
];

/** Three steps to a first response; a signed-in reader is sent to their keys and billing, not to sign up again. */
export function QuickStartSection({ keyPrefix, firstRequest, signedIn }: { keyPrefix: string; firstRequest: string; signedIn: boolean }) {
  return (
    <DocSection id="quick-start" title="Quick start">
      <ol className="mt-5 flex max-w-3xl flex-col gap-6">
        <Step n={1} title="Create an API key">
          {signedIn ? (
            <>
              Add credits on the{" "}
              <Link href="/billing" className="font-medium text-accent-700 underline hover:text-accent-900">
                billing page
              </Link>{" "}
              and create a key on the{" "}
              <Link href="/keys" className="font-medium text-accent-700 underline hover:text-accent-900">
                API keys page
              </Link>
              .
            </>
          ) : (
            <>
              <Link href="/sign-up" prefetch={false} className="font-medium text-accent-700 underline hover:text-accent-900">
                Create an account
              </Link>
              , add credits on the billing page and create a key.
            </>
          )}{" "}
          The full key is shown once; keep it somewhere safe.
        </Step>
        <Step n={2} title="Keep it in an environment variable">
          Every example on this page reads the key from <Code>API_KEY</Code>, so no key ends up in your code or shell history.
          <CodeBlock className="mt-3" code={`export API_KEY='${keyPrefix}…'`} language="shell" copyLabel="Copy the export command" />
        </Step>
        <Step n={3} title="Make a request">
          A rating costs a fraction of a cent; the response headers say exactly what it cost and what is left.
          <CodeBlock className="mt-3" code={firstRequest} language="shell" copyLabel="Copy the first request" />
        </Step>
      </ol>
      <h3 className="mt-10 text-base font-semibold text-zinc-950">Free endpoints, no key</h3>
      <DocTable caption="Endpoints that need no key" head={["Path", "What it returns"]}>
        {PUBLIC_ENDPOINTS.map((route) => (
          <tr key={route.path}>
            <td className={`${TD} whitespace-nowrap`}>
              {/* JSON routes, not pages: plain links. */}
              <a href={route.path} className="font-mono font-medium text-accent-700 underline hover:text-accent-900">
                GET {route.path}
              </a>
            </td>
            <td className={TD}>{route.purpose}</td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="grid grid-cols-[2rem_minmax(0,1fr)] gap-x-3">
      <span aria-hidden="true" className="grid size-7 place-items-center rounded-full bg-accent-100 text-sm font-semibold text-accent-800">
        {n}
      </span>
      <div className="min-w-0">
        <h3 className="text-base font-semibold text-zinc-950">
          <span className="sr-only">Step {n}: </span>
          {title}
        </h3>
        <div className="mt-1 text-[15px] leading-7 text-zinc-700">{children}</div>
      </div>
    </li>
  );
}

/** The API-KEY header and the key's life cycle. */
export function AuthenticationSection({ keyPrefix }: { keyPrefix: string }) {
  return (
    <DocSection id="authentication" title="Authentication">
      <Prose>
        <p>
          Send your key in the <Code>API-KEY</Code> header with every request to a <Code>/v1</Code> endpoint. There is no OAuth,
          bearer token or query-string key: a request with the key under another header (<Code>Authorization</Code>,{" "}
          <Code>X-API-Key</Code>) counts as having none and gets a <Code>401 missing_api_key</Code>.
        </p>
        <p>
          Keys look like <Code>{keyPrefix}</Code> followed by 64 hexadecimal characters. Only a hash is stored: a lost key cannot
          be shown again, create a new one. The platform shows each key by its first {KEY_HINT_LENGTH} characters, and there you
          can disable, re-enable or delete it, or restrict it to some endpoints. Keys do not expire.
        </p>
      </Prose>
      <CodeBlock className="mt-5 max-w-3xl" code={`API-KEY: ${keyPrefix}0123…cdef`} title="Request header" copyLabel={false} />
    </DocSection>
  );
}
