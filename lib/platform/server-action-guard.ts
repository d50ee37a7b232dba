/**
 * Server actions are POSTs to a page with a `Next-Action` header. Next answers
 * several malformed ones with a 500 (a cross-origin post, a body that is not
 * what React encodes, an unfinished multipart form, a body over the limit);
 * proxy.ts asks this check first and answers those with a 4xx instead. Only
 * requests carrying the header reach it, so the API gains no work.
 */
export const SERVER_ACTION_BODY_LIMIT = 1_000_000; // Next's default serverActions.bodySizeLimit (1 MB)

/** The references React writes for the arguments our components pass: FormData, undefined and odd numbers. */
const ALLOWED_REFERENCE = /^\$(?:\$|undefined$|NaN$|Infinity$|-Infinity$|-0$|K[0-9a-f]+$)/;

function refuse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

const plainString = (value: unknown, allowFormData: boolean) =>
  typeof value === "string" && (!value.startsWith("$") || (ALLOWED_REFERENCE.test(value) && (allowFormData || !value.startsWith("$K"))));

/** A string that is not one of React's references (other than those we allow), a number, a boolean or null. */
const plainValue = (value: unknown, allowFormData: boolean) =>
  value === null || typeof value === "number" || typeof value === "boolean" || plainString(value, allowFormData);

const plainList = (value: unknown) => Array.isArray(value) && value.length <= 100 && value.every((item) => plainValue(item, false));

/**
 * Our actions take plain values, lists of them, and objects of those (a form
 * arrives as FormData); anything else (a Map, a Promise, a nested structure)
 * is not what our pages send.
 */
function plainArgument(value: unknown, allowFormData: boolean): boolean {
  if (plainValue(value, allowFormData) || plainList(value)) return true;
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  return Object.values(value).every((field) => plainValue(field, false) || plainList(field));
}

function rootArguments(text: string, allowFormData: boolean): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) && parsed.length <= 10 && parsed.every((argument) => plainArgument(argument, allowFormData));
  } catch {
    return false;
  }
}

/** null when the post may go on to Next; otherwise the answer it gets. */
export async function checkServerActionPost(request: Request): Promise<Response | null> {
  const refused = await check(request);
  // Read what is left of a refused body (at most the limit: larger ones never get here), so no half-read
  // upload is left behind for the client to hang up on.
  if (refused && !request.bodyUsed) await request.arrayBuffer().catch(() => undefined);
  return refused;
}

async function check(request: Request): Promise<Response | null> {
  if (request.method !== "POST") return refuse(405, "Server actions are POST requests.");
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string | null = null;
  try {
    originHost = origin ? new URL(origin).host : null;
  } catch {
    originHost = null;
  }
  if (!originHost || !host || originHost !== host) return refuse(403, "This form can only be sent from this site.");

  const length = request.headers.get("content-length");
  if (length === null || !/^\d{1,12}$/.test(length)) return refuse(411, "Send the form with a Content-Length.");
  if (Number(length) > SERVER_ACTION_BODY_LIMIT) return refuse(413, "The form is larger than 1 MB.");

  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type.startsWith("text/plain")) {
    return rootArguments(await request.clone().text(), false) ? null : refuse(400, "The form's data could not be read.");
  }
  if (type.startsWith("multipart/form-data")) {
    let root: FormDataEntryValue | null;
    try {
      root = (await request.clone().formData()).get("0");
    } catch {
      return refuse(400, "The form's data could not be read.");
    }
    return typeof root === "string" && rootArguments(root, true) ? null : refuse(400, "The form's data could not be read.");
  }
  // Our pages send text/plain or multipart; anything else is no server action of ours.
  return refuse(415, "Send the form as the page does.");
}
