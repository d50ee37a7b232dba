"use server";

import { runAction } from "../action";
import { changePassword, signOutOtherSessions } from "../security";

export async function changePasswordAction(input: { current: string; next: string }) {
  return runAction(({ db, principal }) => changePassword(db, principal, input), { revalidate: "/settings" });
}

export async function signOutOtherSessionsAction() {
  return runAction(({ db, principal }) => signOutOtherSessions(db, principal), { revalidate: "/settings" });
}
