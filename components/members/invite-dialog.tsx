"use client";

import { useState, useTransition, type FormEvent } from "react";
import { inviteMemberAction } from "@/lib/platform/actions/members";
import type { CreatedInvitation } from "@/lib/platform/members";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import type { InvitationLimits, RoleOption } from "./types";

/**
 * Invite someone: a form, then the link, shown this once (only its hash is
 * stored). Mount it with a fresh `key` each time it opens, so it starts empty.
 */
export function InviteDialog({
  open,
  orgId,
  roles,
  emailEnabled,
  validDays,
  limits,
  onClose,
  onInvited,
}: {
  open: boolean;
  orgId: string;
  roles: RoleOption[];
  emailEnabled: boolean;
  validDays: number;
  limits: InvitationLimits;
  onClose: () => void;
  onInvited: () => void;
}) {
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const [errors, setErrors] = useState<{ form?: string; email?: string; role?: string }>({});
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") };
    startTransition(async () => {
      const result = await inviteMemberAction(orgId, input);
      if (!result.ok) {
        const fields = result.fieldErrors ?? {};
        setErrors(fields.email || fields.role ? { email: fields.email, role: fields.role } : { form: result.error });
        return;
      }
      setErrors({});
      setCreated(result.data);
      onInvited();
    });
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onClose={onClose}
        dismissible={false}
        title="Invitation link"
        description={`${created.email ? `Only ${created.email} can accept it` : "Whoever opens it first can join"}, once, within ${validDays} days. It is shown only now.`}
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <DeliveryNote created={created} />
        <div className="flex items-center gap-2 rounded-md border border-zinc-300 bg-zinc-50 p-2">
          <code data-testid="invitation-link" className="min-w-0 flex-1 font-mono text-xs break-all text-zinc-900 select-all">
            {created.link}
          </code>
          <CopyButton value={created.link} label="Copy link" />
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Invite someone"
      description={`${
        emailEnabled ? "With an email address we send them the link; you can copy it too." : "You will get a link to copy and send them yourself."
      } Up to ${limits.perInviterPerHour} invitations an hour per person, and ${limits.perOrganizationPerDay} a day per organization.`}
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <Field
          label="Email (optional)"
          hint="Only this person can accept. Leave it empty for a link anyone can use once."
          error={errors.email}
        >
          {(control) => <Input {...control} name="email" type="email" autoComplete="off" placeholder="name@example.com" maxLength={254} data-autofocus />}
        </Field>
        <Field label="Role" hint={roleHint(roles)} error={errors.role}>
          {(control) => (
            <Select {...control} name="role" defaultValue="MEMBER">
              {roles.map((role) => (
                <option key={role.value} value={role.value}>
                  {role.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {errors.form ? <Alert tone="danger">{errors.form}</Alert> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create invitation
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function roleHint(roles: RoleOption[]): string {
  const base = "Members see keys and usage; admins also manage keys, people and billing.";
  return roles.some((role) => role.value === "OWNER") ? `${base} Owners can also hand out ownership.` : base;
}

function DeliveryNote({ created }: { created: CreatedInvitation }) {
  switch (created.delivery) {
    case "sent":
      return <Alert tone="success">We emailed the invitation to {created.email}. You can also copy the link below.</Alert>;
    case "failed":
      return (
        <Alert tone="warning" title="The email could not be sent.">
          The invitation for {created.email} is saved. Copy the link and send it yourself.
        </Alert>
      );
    case "not_configured":
      return <Alert tone="info">Email is not set up on this server. Copy the link and send it yourself to {created.email}.</Alert>;
    case "no_email":
      return <Alert tone="info">Copy the link and send it yourself to the person you invite.</Alert>;
  }
}
