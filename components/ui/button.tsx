import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "@/lib/utils/cn";
import { Spinner } from "./spinner";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost" | "danger-ghost";
export type ButtonSize = "sm" | "md" | "lg";

const BASE =
  "inline-flex shrink-0 items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors " +
  "focus-visible:outline-2 focus-visible:outline-offset-2 " +
  "disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-accent-600 text-white shadow-sm hover:bg-accent-700 focus-visible:outline-accent-600 disabled:hover:bg-accent-600",
  secondary:
    "border border-zinc-300 bg-white text-zinc-900 shadow-sm hover:bg-zinc-100 focus-visible:outline-accent-600 disabled:hover:bg-white",
  danger: "bg-red-600 text-white shadow-sm hover:bg-red-700 focus-visible:outline-red-600 disabled:hover:bg-red-600",
  ghost: "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-accent-600 disabled:hover:bg-transparent",
  // A destructive action beside quiet ones (a row's "Delete"): red text, no fill.
  "danger-ghost": "text-red-700 hover:bg-red-50 hover:text-red-800 focus-visible:outline-red-600 disabled:hover:bg-transparent",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-sm",
  md: "h-10 px-4 text-sm",
  lg: "h-12 px-5 text-base",
};

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/** The button look for other elements, e.g. a link: `<a className={buttonClasses({ variant: "secondary" })}>`. */
export function buttonClasses({ variant = "primary", size = "md", className }: ButtonStyle = {}): string {
  return cn(BASE, VARIANTS[variant], SIZES[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonStyle {
  /** Shows a spinner, sets aria-busy and disables the button (no double submits). */
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A button. `type` defaults to "button" so that a button inside a form submits
 * only when asked to (`type="submit"`). Every other prop, `ref` included, goes
 * to the <button>.
 */
export function Button({
  variant,
  size,
  loading = false,
  disabled,
  className,
  type = "button",
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClasses({ variant, size, className })}
      {...props}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
