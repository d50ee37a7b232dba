import type { ParameterDescription } from "@/lib/api/describe";
import { formatCount } from "@/lib/utils/format";

/** An endpoint's query parameters, as /endpoints and the OpenAPI document describe them. */
export function ParameterList({ parameters }: { parameters: ParameterDescription[] }) {
  return (
    <dl className="divide-y divide-zinc-200 border-y border-zinc-200">
      {parameters.map((parameter) => (
        <div key={parameter.name} className="py-3">
          <dt className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
            <code className="font-mono text-sm font-semibold text-zinc-950">{parameter.name}</code>
            <span className="font-mono text-xs text-zinc-500">{parameter.type}</span>
            {parameter.required ? (
              <span className="text-xs font-medium text-accent-700">required</span>
            ) : (
              <span className="text-xs text-zinc-500">optional</span>
            )}
          </dt>
          <dd className="mt-1 text-sm leading-6 text-zinc-700">
            {/* The descriptions are also OpenAPI's, where `name` is code: here too, not a pair of backticks. */}
            {parameter.description.split("`").map((part, i) =>
              i % 2 ? (
                <code key={i} className="font-mono text-[13px]">
                  {part}
                </code>
              ) : (
                part
              ),
            )}
            <Constraints parameter={parameter} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Constraints({ parameter }: { parameter: ParameterDescription }) {
  const facts = [
    parameter.default !== undefined ? `Default ${formatCount(parameter.default)}` : null,
    parameter.minimum !== undefined && parameter.maximum !== undefined
      ? `${formatCount(parameter.minimum)} to ${formatCount(parameter.maximum)}`
      : parameter.minimum !== undefined
        ? `At least ${formatCount(parameter.minimum)}`
        : null,
  ].filter(Boolean);
  if (facts.length === 0) return null;
  return <span className="mt-0.5 block text-xs text-zinc-500">{facts.join(" · ")}</span>;
}
