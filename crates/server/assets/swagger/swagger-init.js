// Starts Swagger UI on /docs. A file rather than an inline script: the page's Content-Security-Policy
// allows only this server's own script files.
window.ui = SwaggerUIBundle({
  url: "/api-docs/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout"
});
