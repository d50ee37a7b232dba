import { formatWait } from "@/lib/utils/dates";

/** Sign-in errors in our words; read by the sign-in page (a server component) and the forms. */
const ERROR_MESSAGES: Record<string, string> = {
  CredentialsSignin: "That email and password do not match an account.",
  oauth_email_taken: "An account with this email exists. Sign in with your email and password.",
  oauth_no_email: "Your account with that provider has no email address we can use.",
  OAuthSignin: "Sign-in with that provider could not start. Try again.",
  OAuthCallback: "The provider did not confirm the sign-in. Try again.",
  AccessDenied: "Sign-in was refused.",
  SessionRequired: "Sign in to continue.",
  rate_limited: "Too many sign-in attempts from your network. Wait 15 minutes and try again.",
  locked: "This account is locked. Contact support to have it unlocked.",
  account_locked: "This account is locked. Contact support to have it unlocked.",
  unavailable: "Sign-in is briefly unavailable. Try again in a few seconds.",
};

export function authErrorMessage(code: string | undefined | null): string | null {
  if (!code) return null;
  // "rate_limited:<seconds>": authorize() refused this address for a while and says how long.
  const wait = /^rate_limited:(\d{1,6})$/.exec(code);
  if (wait) return `Too many sign-in attempts from your network. Try again in ${formatWait(Number(wait[1]))}.`;
  // Only our own words: ?error= is in the address bar, anyone can write there.
  return ERROR_MESSAGES[code] ?? "Sign-in failed. Try again.";
}
