// One formatter for the whole tree; `npm run format` writes, `npm run checks` checks.
/** @type {import("prettier").Config} */
const config = {
  printWidth: 120,
  plugins: ["prettier-plugin-tailwindcss"],
  // Tailwind 4 reads its configuration through the global stylesheet, so the class-order plugin does too.
  tailwindStylesheet: "./app/globals.css",
};

export default config;
