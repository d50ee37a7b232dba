import { describe, expect, it } from "vitest";
import { refusalOn } from "./use-account-form";

describe("an account form's refusal", () => {
  it("is said on the fields when they carry every message, and above the form otherwise", () => {
    const onFields = { error: "Enter your email.", fieldErrors: { email: "Enter your email." } };
    expect(refusalOn(onFields, ["email"])).toEqual({ error: null, fieldErrors: { email: "Enter your email." } });

    // No field to mark (a refusal of the whole request): above the form.
    expect(refusalOn({ error: "Too many attempts." }, ["email"])).toEqual({ error: "Too many attempts.", fieldErrors: undefined });

    // The reset link's token is a hidden input: its refusal is said above the form, beside any field's own.
    const token = { error: "This link has expired.", fieldErrors: { token: "This link has expired.", password: "Too short." } };
    expect(refusalOn(token, ["password", "confirm"])).toEqual({ error: "This link has expired.", fieldErrors: token.fieldErrors });
    expect(refusalOn({ error: "Too short.", fieldErrors: { password: "Too short." } }, ["password", "confirm"]).error).toBeNull();
  });
});
