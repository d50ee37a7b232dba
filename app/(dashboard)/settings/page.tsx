import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { RenameOrganizationForm } from "@/components/settings/organization-name-forms";
import { ChangePasswordForm, SessionList } from "@/components/settings/security-settings";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINTS, isEndpointName } from "@/lib/catalog";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/accounts";
import { securityOverview } from "@/lib/platform/security";
import { getOrgPage } from "@/lib/platform/session";
import { formatDateTime } from "@/lib/utils/dates";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { formatCount } from "@/lib/utils/format";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { db, principal, org, role, user, allowed: canRename } = await getOrgPage("org:rename");
  const plan = org.plan;
  const security = await securityOverview(db, principal);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Settings" description={`The organization ${org.name}, its plan, and your account.`} />

      <Card>
        <CardHeader>
          <CardTitle as="h2">Organization</CardTitle>
          <CardDescription>
            Your role here: <strong className="font-medium text-zinc-900">{ROLE_LABELS[role]}</strong>.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {canRename ? (
            <div className="max-w-md">
              <RenameOrganizationForm orgId={org.id} name={org.name} />
            </div>
          ) : (
            <div className="flex flex-col gap-3">
              <Facts>
                <Fact label="Name">{org.name}</Fact>
              </Facts>
              <p className="text-sm text-zinc-600">Only owners and admins can rename the organization.</p>
            </div>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Plan</CardTitle>
          <CardDescription>What the organization’s keys may do. Platform administrators change plans; contact them to move up.</CardDescription>
        </CardHeader>
        <CardContent>
          <Facts>
            <Fact label="Plan">{plan.name}</Fact>
            <Fact label="Rate limit">{formatCount(plan.requestsPerMinute)} requests per minute</Fact>
            <Fact label="Unique tickers">
              {plan.isTrial && plan.dailyTickerLimit ? `${formatCount(plan.dailyTickerLimit)} per endpoint per day (days end at midnight Chicago time)` : "No limit"}
            </Fact>
            <Fact label="Endpoints" wide>
              <ul className="flex flex-wrap gap-1.5">
                {plan.allowedEndpoints.filter(isEndpointName).map((name) => (
                  <li key={name}>
                    <Badge tone="accent" title={`/v1/${name}`}>
                      {ENDPOINTS[name].title}
                    </Badge>
                  </li>
                ))}
              </ul>
            </Fact>
          </Facts>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Your account</CardTitle>
        </CardHeader>
        <CardContent>
          <Facts>
            <Fact label="Email">
              <span className="break-all">{user.email}</span>
            </Fact>
            <Fact label="Name">{user.name || <span className="text-zinc-500">Not set</span>}</Fact>
          </Facts>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2" id="security">
            Security
          </CardTitle>
          <CardDescription>Your password, and the browsers signed in to your account.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-8">
          <section aria-labelledby="password-heading" className="flex flex-col gap-3">
            <h3 id="password-heading" className="text-sm font-semibold text-zinc-900">
              Password
            </h3>
            {security.hasPassword ? (
              <ChangePasswordForm minLength={PASSWORD_MIN_LENGTH} />
            ) : (
              <p className="text-sm text-zinc-600">You sign in with {security.providers.join(" or ") || "a provider"}; there is no password to change.</p>
            )}
          </section>
          <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
            <h3 id="sessions-heading" className="text-sm font-semibold text-zinc-900">
              Where you are signed in
            </h3>
            <SessionList
              sessions={security.sessions.map((s) => ({ id: s.id, ip: s.ip, userAgent: s.userAgent, current: s.current, createdAt: formatDateTime(s.createdAt) }))}
            />
          </section>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Another organization</CardTitle>
          <CardDescription>For another team or client: separate keys, balance and members. You can switch between organizations at the top of the page.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link href="/organizations/new" className={buttonClasses({ variant: "secondary" })}>
            Create another organization
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

function Facts({ children }: { children: ReactNode }) {
  return <dl className="grid gap-4 sm:grid-cols-2">{children}</dl>;
}

function Fact({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}
