// Classic zod sets English messages when it is imported; zod/mini (what the shared schemas are built with,
// so the browser loads only the parts of zod they use) leaves the locale to the app and would answer
// "Invalid input" for every check without its own message. The modules that build schemas import this,
// so a form in the browser and a 422 from the server say the same words as before.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());
