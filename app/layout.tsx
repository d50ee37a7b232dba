import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { BRAND_ICON_SVG } from "@/lib/utils/brand-icon";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Dilution Data API", template: "%s · Dilution Data API" },
  description:
    "Dilution-risk data for listed companies as JSON: ratings, warrants and convertibles, shelf registrations, " +
    "listing compliance, float and offerings. Paid per GB from a prepaid credit balance.",
  applicationName: "Dilution Data API",
  // Inline, so no icon file is needed; /favicon.ico serves the same one (app/favicon.ico/route.ts).
  icons: { icon: `data:image/svg+xml,${encodeURIComponent(BRAND_ICON_SVG)}` },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: "#fafafa",
};

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-dvh font-sans antialiased">
        <a
          href="#main"
          className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-zinc-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50"
        >
          Skip to content
        </a>
        {children}
      </body>
    </html>
  );
}
