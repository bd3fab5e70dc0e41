import { render } from "preact";
import { App } from "./App";
import { chosenLocale, setLocale } from "./i18n";
import { authConfig } from "./lib/auth";
import { loadConfig } from "./lib/pkce";
import "./styles.css";

// Signed out, the browser's languages pick the catalogue (fallback en); a language chosen in
// Settings wins. The first paint waits for the catalogue so no English flashes first.
// The run-time config (AWS: the hosted UI's sign-in) is read before the first paint too, so
// the sign-in screen shows the right way in.
Promise.all([setLocale(chosenLocale()).catch(() => undefined),
             loadConfig().then((config) => authConfig.set(config))]).finally(() => {
  render(<App />, document.getElementById("root")!);
});
