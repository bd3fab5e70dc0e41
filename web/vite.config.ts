import { defineConfig } from "vite";
import preact from "@preact/preset-vite";
import { VitePWA } from "vite-plugin-pwa";

// Served at /app/ by the Flask app (app/web) and, in AWS, by CloudFront from the site bucket.
export default defineConfig({
  base: "/app/",
  plugins: [
    preact(),
    VitePWA({
      registerType: "autoUpdate",
      injectRegister: "script-defer",
      includeAssets: ["icon.svg"],
      manifest: {
        name: "TailSpend",
        short_name: "TailSpend",
        description: "Split group expenses, to the cent, online or off.",
        start_url: "/app/",
        scope: "/app/",
        display: "standalone",
        background_color: "#ffffff",
        theme_color: "#0b5cad",
        icons: [{ src: "icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
      },
      workbox: {
        // The app shell only: group state lives in IndexedDB, never in a cache of API replies.
        globPatterns: ["**/*.{js,css,html,svg,webmanifest}"],
        navigateFallback: "/app/index.html",
        navigateFallbackAllowlist: [/^\/app\//],
      },
    }),
  ],
  build: { target: "es2022", sourcemap: false, chunkSizeWarningLimit: 200 },
});
