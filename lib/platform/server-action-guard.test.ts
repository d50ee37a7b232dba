import { describe, expect, it } from "vitest";
import { checkServerActionPost, SERVER_ACTION_BODY_LIMIT } from "./server-action-guard";

const SITE = "http://app.test";

function post(body: BodyInit | null, headers: Record<string, string> = {}, method = "POST") {
  const request = new Request(`${SITE}/keys`, { method, body, headers: { host: "app.test", origin: SITE, "next-action": "abc123", ...headers } });
  // A Request built in a test has no Content-Length of its own; a browser always sends one.
  if (typeof body === "string" && !("content-length" in headers)) request.headers.set("content-length", String(Buffer.byteLength(body)));
  return checkServerActionPost(request);
}
const text = { "content-type": "text/plain;charset=UTF-8" };

async function status(result: Promise<Response | null>) {
  return (await result)?.status ?? "passed";
}

describe("server-action posts", () => {
  it("pass on what our pages send: strings and objects of strings, or a form", async () => {
    expect(await status(post(JSON.stringify(["7c2e0c1e-6b5a-4c47-9d8e-9bd1c8a1f000", { name: "Bot", endpoints: ["offerings"] }]), text))).toBe("passed");
    expect(await status(post(JSON.stringify(["org", "$$5 off", "$undefined"]), text))).toBe("passed");
    expect(await status(post(JSON.stringify(["org", "key", ["offerings", "registrations"]]), text))).toBe("passed");
    expect(await status(post(JSON.stringify(["org", { confirmName: "Acme", forfeitCredit: true }, 3, null]), text))).toBe("passed");
    const form = new FormData();
    form.set("0", JSON.stringify(["$K1"]));
    form.set("1_email", "ann@example.test");
    const multipart = new Request(`${SITE}/sign-up`, { method: "POST", body: form, headers: { host: "app.test", origin: SITE } });
    const bytes = await multipart.clone().arrayBuffer();
    const sent = new Request(multipart.url, { method: "POST", body: bytes, headers: { host: "app.test", origin: SITE, "content-type": multipart.headers.get("content-type")!, "content-length": String(bytes.byteLength) } });
    expect(await status(checkServerActionPost(sent))).toBe("passed");
  });

  it("from another site, or with no origin, are forbidden", async () => {
    expect(await status(post("[]", { ...text, origin: "http://evil.example" }))).toBe(403);
    expect(await status(post("[]", { ...text, origin: "null" }))).toBe(403);
    const noOrigin = new Request(`${SITE}/keys`, { method: "POST", body: "[]", headers: { host: "app.test", "content-length": "2", ...text } });
    expect(await status(checkServerActionPost(noOrigin))).toBe(403);
  });

  it("without a length, or over the limit, are refused before the body is read", async () => {
    expect(await status(post("[]", { ...text, "content-length": String(SERVER_ACTION_BODY_LIMIT + 1) }))).toBe(413);
    const chunked = new Request(`${SITE}/keys`, { method: "POST", body: "[]", headers: { host: "app.test", origin: SITE, ...text } });
    expect(await status(checkServerActionPost(chunked))).toBe(411);
  });

  it("whose data is not what React encodes for our actions are bad requests", async () => {
    for (const body of ["not json", "[", '"str"', '{"a":1}', '["$Q0"]', '["$@99"]', '["$Zzz"]', '["$K1"]', '[[["a"]]]', '[{"a":{"b":"c"}}]', '[{"a":[["b"]]}]']) {
      expect(await status(post(body, text)), body).toBe(400);
    }
    expect(await status(post("garbage", { "content-type": "multipart/form-data; boundary=xx" }))).toBe(400);
  });

  it("other content types are refused: our pages send text/plain or multipart", async () => {
    expect(await status(post("a=b", { "content-type": "application/x-www-form-urlencoded" }))).toBe(415);
    expect(await status(post("[]", { "content-type": "application/json" }))).toBe(415);
  });

  it("other methods are refused", async () => {
    expect(await status(post(null, text, "GET"))).toBe(405);
  });
});
