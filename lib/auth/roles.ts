// The role words moved to the foundation (lib/utils/roles.ts) so that lib/email.ts need not import lib/auth;
// the dashboard's pages still import them from here until they import lib/utils/roles.ts themselves.
export { ROLE_LABELS } from "@/lib/utils/roles";
