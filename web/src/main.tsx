import { render } from "preact";
import { App } from "./App";
import { chosenLocale, setLocale } from "./i18n";
import "./styles.css";

// Signed out, the browser's languages pick the catalogue (fallback en); a language chosen in
// Settings wins. The first paint waits for the catalogue so no English flashes first.
setLocale(chosenLocale()).catch(() => undefined).finally(() => {
  render(<App />, document.getElementById("root")!);
});
