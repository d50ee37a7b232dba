import { expect, test, type Page } from "@playwright/test";
import { screenshots, sentEmails, signIn, signUp, unique, watchConsole } from "./support";

const OLD_PASSWORD = "the password I forgot";
const NEW_PASSWORD = "a password I will remember";

// Against an external server there is no mail sink to read the link from: the walk fails and says so, rather than passing unseen.
test.beforeEach(() => {
  expect(process.env.E2E_MAIL_SINK_URL, "needs the mail sink playwright.config.ts starts with its own server (E2E_MAIL_SINK_URL)").toBeTruthy();
});

/** Asks for a link on the forgot-password page; the answer the page gives. */
async function askForLink(page: Page, email: string): Promise<string> {
  await page.goto("/forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a link" }).click();
  const answer = page.getByRole("status").filter({ hasText: "Check your email" });
  await expect(answer).toBeVisible();
  return (await answer.textContent())!;
}

test("a forgotten password: the emailed link sets a new one, signs every browser out, and works once; an unknown address gets the same answer", async ({ page, browser, baseURL }) => {
  const email = unique("forgot");
  await signUp(page, email, OLD_PASSWORD);
  const laptop = await browser.newContext();
  const laptopPage = await laptop.newPage();
  await signIn(laptopPage, email, OLD_PASSWORD);

  const visitor = await browser.newContext();
  const forgot = await visitor.newPage();
  const errors = watchConsole(forgot);
  await forgot.goto("/sign-in");
  await forgot.getByRole("link", { name: "Forgot password?" }).click();
  await expect(forgot).toHaveURL(/\/forgot-password$/);
  await expect(forgot.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await screenshots(forgot, "forgot-password");

  const known = await askForLink(forgot, email.toUpperCase());
  const nobody = unique("nobody");
  const unknown = await askForLink(forgot, nobody);
  expect(unknown.replace(nobody, "ADDRESS")).toBe(known.replace(email.toUpperCase(), "ADDRESS"));
  await screenshots(forgot, "forgot-password-sent");

  // The email reaches the sink through the notification outbox; the unknown address gets none.
  await expect.poll(async () => (await sentEmails(email)).length, { timeout: 20_000 }).toBe(1);
  const [message] = await sentEmails(email);
  expect(message!.subject).toContain("reset your password");
  const link = new RegExp(`${baseURL}/reset-password/[A-Za-z0-9_-]{43}`).exec(message!.text)?.[0];
  expect(link, message!.text).toBeTruthy();
  expect(await sentEmails(nobody)).toEqual([]);

  await forgot.goto(link!);
  await expect(forgot.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await screenshots(forgot, "reset-password");
  await forgot.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await forgot.getByLabel("New password again").fill("not the same password");
  await forgot.getByRole("button", { name: "Set the new password" }).click();
  await expect(forgot.getByText("The two passwords are not the same.")).toBeVisible();
  await forgot.getByLabel("New password again").fill(NEW_PASSWORD);
  await forgot.getByRole("button", { name: "Set the new password" }).click();
  await expect(forgot.getByRole("status").filter({ hasText: "Your password is changed" })).toBeVisible();

  // Both browsers that were signed in are signed out.
  for (const signedIn of [page, laptopPage]) {
    await signedIn.goto("/keys");
    await expect(signedIn).toHaveURL(/\/sign-in/);
  }
  // The link works once.
  await forgot.goto(link!);
  await expect(forgot.getByRole("heading", { name: "This link does not work any more" })).toBeVisible();
  await expect(forgot.getByRole("link", { name: "Email me a new link" })).toBeVisible();

  expect(errors).toEqual([]);

  // The old password no longer signs in (the browser logs the 401 of that attempt); the new one does.
  await forgot.goto("/sign-in");
  await forgot.getByLabel("Email").fill(email);
  await forgot.getByLabel("Password").fill(OLD_PASSWORD);
  await forgot.getByRole("button", { name: "Sign in" }).click();
  await expect(forgot.getByRole("alert").filter({ hasText: "That email and password do not match an account." })).toBeVisible();
  await signIn(forgot, email, NEW_PASSWORD);
  await Promise.all([laptop.close(), visitor.close()]);
});
