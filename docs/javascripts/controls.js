// The figures a reader can drive (figures/attend_figures/controls.py). Every state of every
// control was drawn at build, numbers and all, by the `attend` package; this script only shows
// the panel whose state the control names, and the figure's marks that panel names (the cost
// plot's marker at the chosen n). It computes nothing and fetches nothing. Without it, the page
// keeps the static figure and the controls stay hidden.
document.querySelectorAll(".attend-control").forEach((live) => {
  const figure = live.closest("figure");
  const inputs = [...live.querySelectorAll("[data-control-input]")];
  const panels = [...live.querySelectorAll(".attend-control__panel")];
  const now = live.querySelector(".attend-control__now");
  const chosen = () => {
    const input = inputs.find((el) => el.type !== "radio" || el.checked);
    if (input.type === "checkbox") return input.checked ? input.dataset.on : input.dataset.off;
    if (input.type === "range") return panels[input.value].dataset.state;
    return input.value;
  };
  const show = () => {
    const state = chosen();
    panels.forEach((panel) => { panel.hidden = panel.dataset.state !== state; });
    const shown = panels.find((panel) => !panel.hidden);
    const marks = shown.dataset.marks.split(" ");
    figure.querySelectorAll("[id]").forEach((el) => {
      if (el.closest(".attend-figure__panels")) el.classList.toggle("attend-mark--shown", marks.includes(el.id));
    });
    now.textContent = shown.dataset.label;
    inputs.filter((el) => el.type === "range")
      .forEach((el) => el.setAttribute("aria-valuetext", shown.dataset.label));
  };
  inputs.forEach((input) => input.addEventListener("input", show));
  inputs.forEach((input) => input.addEventListener("change", show));
  live.hidden = false;
  show();
});
