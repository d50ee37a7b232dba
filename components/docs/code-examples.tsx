import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs } from "@/components/ui/tabs";
import type { CodeExample } from "@/lib/api/examples";

/** The request in curl, Python and JavaScript; the language picked is shared by every endpoint. */
export function CodeExamples({ examples, label }: { examples: CodeExample[]; label: string }) {
  return (
    <Tabs
      label={`${label}: request examples`}
      syncKey="docs-language"
      tone="dark"
      className="overflow-hidden rounded-lg bg-zinc-950 ring-1 ring-zinc-900/10"
      items={examples.map((example) => ({
        id: example.id,
        label: example.label,
        actions: <CopyButton value={example.code} label={`Copy ${example.label} example`} tone="dark" />,
        content: <CodeBlock code={example.code} language={example.language} bare className="rounded-none ring-0" />,
      }))}
    />
  );
}
