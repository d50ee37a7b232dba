import { afterEach, describe, expect, it, vi } from "vitest";
import { authOptions, oauthProviders } from "./next-auth";

describe("sign-in providers", () => {
  afterEach(() => vi.unstubAllEnvs());

  const configured = () => authOptions().providers.map((provider) => provider.id);

  it("offers email and password alone when no OAuth credentials are set", () => {
    for (const name of ["GITHUB_ID", "GITHUB_SECRET", "GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"]) vi.stubEnv(name, "");
    expect(oauthProviders()).toEqual([]);
    expect(configured()).toEqual(["credentials"]);
  });

  it("adds GitHub and Google, buttons and providers alike, each only with both of its variables", () => {
    vi.stubEnv("GITHUB_ID", "gh-id");
    vi.stubEnv("GITHUB_SECRET", "gh-secret");
    vi.stubEnv("GOOGLE_CLIENT_ID", "google-id");
    vi.stubEnv("GOOGLE_CLIENT_SECRET", "");
    expect(oauthProviders()).toEqual([{ id: "github", name: "GitHub" }]);
    expect(configured()).toEqual(["credentials", "github"]);

    vi.stubEnv("GOOGLE_CLIENT_SECRET", "google-secret");
    expect(oauthProviders().map((p) => p.name)).toEqual(["GitHub", "Google"]);
    expect(configured()).toEqual(["credentials", "github", "google"]);
  });
});
