"use client";

import { useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils/cn";

type CopyState = "idle" | "copied" | "failed";

export interface CopyButtonProps {
  /** The text put on the clipboard. */
  value: string;
  /** Accessible name while idle, e.g. "Copy curl example"; the visible text stays "Copy". */
  label?: string;
  /** "dark" on code blocks, "light" on page surfaces. */
  tone?: "dark" | "light";
  className?: string;
}

const FEEDBACK_MS = 2000;

const TONES = {
  dark: "text-zinc-300 hover:bg-white/10 hover:text-white focus-visible:outline-accent-400",
  light: "border border-zinc-300 bg-white text-zinc-700 shadow-sm hover:bg-zinc-100 hover:text-zinc-900",
};

/** Copies `value` and says "Copied" for two seconds (announced to screen readers too). */
export function CopyButton({ value, label = "Copy", tone = "light", className }: CopyButtonProps) {
  const [state, setState] = useState<CopyState>("idle");
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy(button: HTMLButtonElement) {
    const ok = await writeClipboard(value);
    button.focus(); // the fallback's selection moves focus away
    setState(ok ? "copied" : "failed");
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState("idle"), FEEDBACK_MS);
  }

  const text = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy";
  return (
    <>
      <button
        type="button"
        onClick={(event) => void copy(event.currentTarget)}
        aria-label={state === "idle" ? label : text}
        data-state={state}
        className={cn(
          "inline-flex h-7 shrink-0 items-center gap-1.5 rounded-md px-2 text-xs font-medium whitespace-nowrap transition-colors",
          "focus-visible:outline-2 focus-visible:outline-offset-2",
          TONES[tone],
          className,
        )}
      >
        {state === "copied" ? <CheckIcon /> : <CopyIcon />}
        <span>{text}</span>
      </button>
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Could not copy; select the text and copy it by hand" : ""}
      </span>
    </>
  );
}

/** The Clipboard API where the page may use it, else a selected textarea (plain-http origins, older browsers). */
async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // permission refused or not a secure context: try the fallback
  }
  const textarea = document.createElement("textarea");
  textarea.value = text;
  textarea.setAttribute("readonly", "");
  textarea.style.position = "fixed";
  textarea.style.opacity = "0";
  document.body.appendChild(textarea);
  textarea.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    textarea.remove();
  }
}

function CopyIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
      <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
      <path d="M10.5 5.5V3.5a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h2" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="m3.5 8.5 3 3 6-7" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
