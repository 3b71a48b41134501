// The API description at /docs: Swagger UI from the installed swagger-ui-bundle package, started
// from this file because the page's Content-Security-Policy allows no inline script.
window.addEventListener("DOMContentLoaded", () => {
  window.ui = window.SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIStandalonePreset],
    plugins: [window.SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
  });
});
