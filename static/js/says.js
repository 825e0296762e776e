// The page's words, in the phone's language: data-say-* attributes of <body>, which the
// template (base.html) fills from the catalogue; "{name}" placeholders are filled in here.
function boneyardSays(name, params) {
  var text = (document.body && document.body.dataset[name]) || "";
  Object.keys(params || {}).forEach(function (key) {
    text = text.split("{" + key + "}").join(String(params[key]));
  });
  return text;
}
