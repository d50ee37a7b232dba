/** The site's icon: an SVG, used inline by the root layout and served at /favicon.ico for browsers that ask there first. */
export const BRAND_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#414ee1"/>' +
  '<text x="16" y="22.5" font-family="system-ui,sans-serif" font-size="18" font-weight="700" fill="#fff" text-anchor="middle">D</text></svg>';
