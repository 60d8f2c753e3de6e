// Deferred loading for the page's parts below the playground: a part's code loads once its
// section comes near the viewport (docs/bindings.md, "The page's first load").

/** Calls `load` once, when `section` comes within 200 px of the viewport. */
export function whenNear(section, load) {
  const near = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    near.disconnect();
    void load();
  }, { rootMargin: "200px" });
  near.observe(section);
}
