/** next-auth's session cookie: the __Secure- name on https deployments. */
export const SESSION_COOKIE_NAMES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;
