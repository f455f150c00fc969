// SPDX-License-Identifier: BSD-3-Clause
#include "channel_plan.h"

#include "exposition.h"

namespace s2c::monitor {

const char kElementName[] = "cmp";
const char* const kFeedNames[2] = {"reference", "distorted"};
const char* const kSinkPads[2] = {"ref_sink", "dist_sink"};

namespace {

constexpr char kFactory[] = "ssimulacra2cmp";

// A duration with its unit ("2s") in the property's unit: nanoseconds for
// an integer (GstClockTime's unit, that of every time property of the
// element), seconds for a double. Anything else as written.
std::string InPropertyUnit(const GParamSpec* pspec, const std::string& text) {
  uint64_t ns = 0;
  if (!ParseDuration(text, &ns)) return text;
  switch (G_TYPE_FUNDAMENTAL(pspec->value_type)) {
    case G_TYPE_INT:
    case G_TYPE_UINT:
    case G_TYPE_INT64:
    case G_TYPE_UINT64:
      return std::to_string(ns);
    case G_TYPE_DOUBLE:
      return FormatValue(static_cast<double>(ns) / 1e9);
    default:
      return text;
  }
}

// What the property takes, for an error: an enum's names ("off, auto or
// index"), a number's range; "" for other types.
std::string Accepted(const GParamSpec* pspec) {
  if (G_IS_PARAM_SPEC_ENUM(pspec)) {
    const GEnumClass* values = G_PARAM_SPEC_ENUM(pspec)->enum_class;
    std::string names;
    for (guint i = 0; i < values->n_values; ++i) {
      names += std::string(i == 0 ? "" : i + 1 == values->n_values ? " or " : ", ") +
               values->values[i].value_nick;
    }
    return names;
  }
  auto range = [](auto min, auto max) {
    return "from " + std::to_string(min) + " to " + std::to_string(max);
  };
  if (G_IS_PARAM_SPEC_UINT(pspec)) {
    return range(G_PARAM_SPEC_UINT(pspec)->minimum, G_PARAM_SPEC_UINT(pspec)->maximum);
  }
  if (G_IS_PARAM_SPEC_INT(pspec)) {
    return range(G_PARAM_SPEC_INT(pspec)->minimum, G_PARAM_SPEC_INT(pspec)->maximum);
  }
  if (G_IS_PARAM_SPEC_UINT64(pspec)) {
    return range(G_PARAM_SPEC_UINT64(pspec)->minimum, G_PARAM_SPEC_UINT64(pspec)->maximum);
  }
  if (G_IS_PARAM_SPEC_INT64(pspec)) {
    return range(G_PARAM_SPEC_INT64(pspec)->minimum, G_PARAM_SPEC_INT64(pspec)->maximum);
  }
  if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
    return "from " + FormatValue(G_PARAM_SPEC_DOUBLE(pspec)->minimum) + " to " +
           FormatValue(G_PARAM_SPEC_DOUBLE(pspec)->maximum);
  }
  return "";
}

// `text` as a value of the property, checked against its range.
bool ToValue(const GParamSpec* pspec, const std::string& text, GValue* value) {
  g_value_init(value, pspec->value_type);
  if (!gst_value_deserialize(value, text.c_str())) return false;
  return !g_param_value_validate(const_cast<GParamSpec*>(pspec), value);
}

class ElementClass {
 public:
  ElementClass() {
    GstElement* element = gst_element_factory_make(kFactory, nullptr);
    if (element != nullptr) klass_ = G_OBJECT_CLASS(g_type_class_ref(G_OBJECT_TYPE(element)));
    if (element != nullptr) gst_object_unref(element);
  }
  ~ElementClass() {
    if (klass_ != nullptr) g_type_class_unref(klass_);
  }
  ElementClass(const ElementClass&) = delete;
  ElementClass& operator=(const ElementClass&) = delete;

  bool found() const { return klass_ != nullptr; }
  // The writable property `name`, or null.
  const GParamSpec* Find(const std::string& name) const {
    const GParamSpec* pspec = g_object_class_find_property(klass_, name.c_str());
    return pspec != nullptr && (pspec->flags & G_PARAM_WRITABLE) ? pspec : nullptr;
  }

 private:
  GObjectClass* klass_ = nullptr;
};

// The value that `plan` gives the element's property `name`, in `value`
// (unset when it gives none).
bool PlannedValue(const ElementClass& element, const ChannelPlan& plan, const char* name,
                  GValue* value) {
  for (const auto& [key, text] : plan.properties) {
    if (key == name) return ToValue(element.Find(name), text, value);
  }
  return false;
}

// Whether the channel's element appends to a results file of json, which
// cannot be appended to.
bool AppendsToJson(const ElementClass& element, const ChannelPlan& plan) {
  GValue append = G_VALUE_INIT;
  GValue location = G_VALUE_INIT;
  GValue format = G_VALUE_INIT;
  bool json = false;
  if (PlannedValue(element, plan, "results-append", &append) && g_value_get_boolean(&append) &&
      PlannedValue(element, plan, "results-location", &location) &&
      g_value_get_string(&location) != nullptr &&
      PlannedValue(element, plan, "results-format", &format)) {
    GEnumClass* formats = G_ENUM_CLASS(g_type_class_ref(G_VALUE_TYPE(&format)));
    const GEnumValue* chosen = g_enum_get_value(formats, g_value_get_enum(&format));
    json = chosen != nullptr && g_strcmp0(chosen->value_nick, "json") == 0;
    g_type_class_unref(formats);
  }
  for (GValue* value : {&append, &location, &format}) {
    if (G_IS_VALUE(value)) g_value_unset(value);
  }
  return json;
}

// `text` parsed as gst-launch-1.0 would: null, with GStreamer's reason in
// `error`, when it does not parse or link.
GstElement* Parse(const std::string& text, std::string* error) {
  GError* gerror = nullptr;
  GstElement* pipeline = gst_parse_launch_full(text.c_str(), nullptr, GST_PARSE_FLAG_FATAL_ERRORS,
                                               &gerror);
  if (pipeline != nullptr && gerror == nullptr) return pipeline;
  *error = gerror != nullptr ? gerror->message : "does not parse";
  g_clear_error(&gerror);
  if (pipeline != nullptr) gst_object_unref(pipeline);
  return nullptr;
}

}  // namespace

void ChannelPlan::Apply(GstElement* element) const {
  GObjectClass* klass = G_OBJECT_GET_CLASS(element);
  for (const auto& [name, text] : properties) {
    GValue value = G_VALUE_INIT;
    ToValue(g_object_class_find_property(klass, name.c_str()), text, &value);
    g_object_set_property(G_OBJECT(element), name.c_str(), &value);
    g_value_unset(&value);
  }
}

bool PlanChannel(const ChannelConfig& config, ChannelPlan* plan,
                 std::vector<std::string>* warnings, std::string* error) {
  const std::string where = "[channel " + config.name + "] ";
  const ElementClass element;
  if (!element.found()) {
    *error = "the ssimulacra2cmp element is not installed (GST_PLUGIN_PATH?)";
    return false;
  }
  std::string why;
  GstElement* pipeline = MakeChannelPipeline(config, &why);
  if (pipeline == nullptr) {
    *error = where + why;
    return false;
  }
  gst_object_unref(pipeline);
  ChannelPlan planned;
  planned.config = config;
  auto add = [&](const std::string& name, const std::string& text) {
    const GParamSpec* pspec = element.Find(name);
    if (pspec == nullptr) {
      warnings->push_back(where + name + ": ssimulacra2cmp has no such property; ignored");
      return true;
    }
    const std::string converted = InPropertyUnit(pspec, text);
    GValue value = G_VALUE_INIT;
    const bool ok = ToValue(pspec, converted, &value);
    g_value_unset(&value);
    if (!ok) {
      const std::string accepted = Accepted(pspec);
      *error = where + name + ": \"" + text + "\" is not a value of the element's " +
               g_type_name(pspec->value_type) + " property" +
               (accepted.empty() ? "" : " (" + accepted + ")");
      return false;
    }
    planned.properties.emplace_back(name, converted);
    return true;
  };
  for (const auto& [name, text] : config.element_properties) {
    if (!add(name, text)) return false;
  }
  // The element's own feed watch, where it has one, uses the channel's
  // timeout, and its messages name the channel, unless the file says
  // otherwise.
  auto configured = [&](const char* name) {
    for (const auto& setting : config.element_properties) {
      if (setting.first == name) return true;
    }
    return false;
  };
  if (!configured("feed-timeout") && element.Find("feed-timeout") != nullptr) {
    add("feed-timeout", std::to_string(config.feed_timeout_ns) + "ns");
  }
  if (!configured("label") && element.Find("label") != nullptr) {
    add("label", config.name);
  }
  // Windows for the coverage gauge, as long as the element's own coverage
  // check's default.
  if (!configured("summary-interval") && element.Find("summary-interval") != nullptr) {
    add("summary-interval", "10s");
  }
  // The results file keeps every run of the channel's pipeline: restarts
  // and reloads append to it. A json document cannot be appended to.
  if (!configured("results-append") && element.Find("results-append") != nullptr) {
    add("results-append", "true");
  }
  if (AppendsToJson(element, planned)) {
    *error = where + "results-format: a json document cannot take the records of a restart "
             "after the earlier ones; use jsonl or csv (or set results-append = false to "
             "start the file anew at each start)";
    return false;
  }
  planned.element_watches_feeds =
      !configured("feed-timeout") && element.Find("feed-timeout") != nullptr &&
      config.feed_timeout_ns > 0;
  *plan = std::move(planned);
  return true;
}

GstElement* MakeChannelPipeline(const ChannelConfig& config, std::string* error) {
  const std::string* descriptions[2] = {&config.reference, &config.distorted};
  // Each feed ends in a queue, which reports no bound to the latency it can
  // absorb: a live feed without buffering of its own (udpsrc) beside one
  // with a jitter buffer or a decoder's delay would otherwise leave the
  // element a maximum latency below the minimum, and GstAggregator would
  // run it as not live. The capsfilter lets a decodebin's or a demuxer's
  // video pad, not its audio pad, take the link.
  std::string text;
  for (int feed : {0, 1}) {
    text += std::string("bin.( name=") + kFeedNames[feed] + " " + *descriptions[feed] +
            " ! capsfilter caps=\"video/x-raw(ANY)\" ! queue max-size-time=0 ! " + kElementName +
            "." + kSinkPads[feed] + " ) ";
  }
  text += std::string(kFactory) + " name=" + kElementName + " ! fakesink";
  GstElement* pipeline = Parse(text, error);
  if (pipeline == nullptr) {
    // Which feed is at fault: the first that does not parse on its own.
    for (int feed : {0, 1}) {
      std::string why;
      GstElement* alone = Parse(*descriptions[feed] + " ! fakesink", &why);
      if (alone == nullptr) {
        *error = std::string(kFeedNames[feed]) + ": " + why;
        return nullptr;
      }
      gst_object_unref(alone);
    }
    return nullptr;
  }
  // A feed's own element named like the monitor's would have taken its
  // links.
  GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), kElementName);
  const bool ours = GST_OBJECT_PARENT(element) == GST_OBJECT(pipeline);
  gst_object_unref(element);
  if (!ours) {
    *error = std::string("a feed has an element named \"") + kElementName +
             "\", the monitor's name for its ssimulacra2cmp; name it otherwise";
    gst_object_unref(pipeline);
    return nullptr;
  }
  gst_object_set_name(GST_OBJECT(pipeline), config.name.c_str());
  return pipeline;
}

}  // namespace s2c::monitor
