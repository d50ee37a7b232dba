"use client";

import { useState, type FormEvent } from "react";

/** What a refused submission shows: a message above the form, and each field's own. */
export interface FormRefusal {
  error: string | null;
  fieldErrors?: Record<string, string>;
}

/**
 * The state every account form keeps (sign-in, sign-up, forgot and reset
 * password): busy from the submit until a refusal, the message above the form
 * and each field's message, both cleared when it is sent again. On success
 * the form gives way to the next page or to its confirmation, so the button
 * stays busy until then.
 */
export function useAccountForm(initialError: string | null = null) {
  const [error, setError] = useState<string | null>(initialError);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  /** The form's submit handler: `submit` gets its data and answers a refusal to show, or null when it went through. */
  function submitWith(submit: (form: FormData) => Promise<FormRefusal | null>) {
    return async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      setBusy(true);
      setError(null);
      setFieldErrors({});
      const refusal = await submit(form);
      if (!refusal) return;
      setError(refusal.error);
      setFieldErrors(refusal.fieldErrors ?? {});
      setBusy(false);
    };
  }

  return { error, fieldErrors, busy, submitWith };
}

/**
 * A server action's refusal on a form with these fields: each field shows its
 * own message, and the message above the form is shown unless the fields
 * already say everything (a refusal of a hidden input, like the reset link's
 * token, is said above the form).
 */
export function refusalOn(result: { error: string; fieldErrors?: Record<string, string> }, fields: readonly string[]): FormRefusal {
  const saidByFields = result.fieldErrors !== undefined && Object.keys(result.fieldErrors).every((name) => fields.includes(name));
  return { error: saidByFields ? null : result.error, fieldErrors: result.fieldErrors };
}
