/** Tailwind CSS 4 runs as a PostCSS plugin; it needs no tailwind.config file. */
const config = {
  plugins: {
    "@tailwindcss/postcss": {},
  },
};

export default config;
