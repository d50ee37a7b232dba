export type ClassValue = string | false | null | undefined | ClassValue[] | Record<string, boolean | null | undefined>;

/**
 * Joins class names, skipping falsy ones: `cn("a", on && "b", { c: true }, ["d"])`.
 *
 * It does not resolve conflicting Tailwind utilities: when a caller passes a
 * class that competes with a component's own (`p-2` against `p-4`), the one
 * Tailwind emits later wins, not the one written later. Components therefore
 * keep their own classes minimal and let `className` add, not replace.
 */
export function cn(...values: ClassValue[]): string {
  const out: string[] = [];
  const add = (value: ClassValue): void => {
    if (!value) return;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach(add);
    else for (const [name, on] of Object.entries(value)) if (on) out.push(name);
  };
  values.forEach(add);
  return out.join(" ");
}
