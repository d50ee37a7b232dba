import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/utils/app-secret";

/**
 * Secrets we must read back (a webhook endpoint's signing secret), encrypted
 * at rest with AES-256-GCM under a key derived (HKDF-SHA256) from the
 * application secret, so a copy of the database alone does not reveal them.
 * Stored as "v1.<iv>.<tag>.<ciphertext>", base64url.
 */
const INFO = "dilution-data webhook secrets v1";

function key(appSecret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", Buffer.from(appSecret, "utf8"), Buffer.alloc(0), INFO, 32));
}

export function sealSecret(plain: string, appSecret = authSecret()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(appSecret), iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

export function openSecret(sealed: string, appSecret = authSecret()): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key(appSecret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
