// Keys, ranges, units and accessors for every parameter; see param_table.hpp.
#include "model/param_table.hpp"

#include "model/number_text.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <cmath>
#include <cstdio>
#include <string>

namespace murmur {
namespace {

constexpr double kMaxSeed = 9007199254740991.0;  // 2^53 - 1: exact in JSON numbers and doubles
constexpr double kMaxBoids = 100000000.0;

#define MURMUR_FLOAT(field) \
    [](const Params& p) { return double(p.field); }, [](Params& p, double v) { p.field = float(v); }

// Generated key names live as long as the table (ParamInfo holds const char*).
const char* keep(std::string name) {
    static std::deque<std::string> names;
    names.push_back(std::move(name));
    return names.back().c_str();
}

// speciesS.*: the role of species S and, for S > 0, its rules and motion (species 0's rules are
// the unprefixed keys: separation.radius, ...).
template <std::uint32_t S>
void addSpeciesKeys(std::vector<ParamInfo>& t) {
    const std::string k = "species" + std::to_string(S) + ".";
    t.push_back({keep(k + "share"), ParamKind::Float, "", 0, 1000, {}, "relative share of the spawned boids",
                 MURMUR_FLOAT(roles[S].share)});
    t.push_back({keep(k + "predator"), ParamKind::Choice, "", 0, 1, {"off", "on"},
                 "a predator chases the nearest prey it sees and does not flock with prey",
                 [](const Params& p) { return p.roles[S].predator ? 1.0 : 0.0; },
                 [](Params& p, double v) { p.roles[S].predator = v != 0.0; }});
    t.push_back({keep(k + "chase"), ParamKind::Float, "", 0, 100, {},
                 "predator: weight of the steer toward the nearest prey within its cohesion radius and view",
                 MURMUR_FLOAT(roles[S].chase)});
    t.push_back({keep(k + "flee.radius"), ParamKind::Float, "units", 0, 10000, {},
                 "prey: flee predators within this distance (at most world_size/2 in wrap)", MURMUR_FLOAT(roles[S].flee.radius)});
    t.push_back({keep(k + "flee.weight"), ParamKind::Float, "", 0, 100, {}, "prey: weight of fleeing predators",
                 MURMUR_FLOAT(roles[S].flee.weight)});
    if constexpr (S > 0) {
        t.push_back({keep(k + "separation.radius"), ParamKind::Float, "units", 0, 10000, {}, "separation radius of this species (from every species)",
                     MURMUR_FLOAT(species[S].separation.radius)});
        t.push_back({keep(k + "separation.weight"), ParamKind::Float, "", 0, 100, {}, "separation weight of this species",
                     MURMUR_FLOAT(species[S].separation.weight)});
        t.push_back({keep(k + "alignment.radius"), ParamKind::Float, "units", 0, 10000, {}, "alignment radius (within the species)",
                     MURMUR_FLOAT(species[S].alignment.radius)});
        t.push_back({keep(k + "alignment.weight"), ParamKind::Float, "", 0, 100, {}, "alignment weight of this species",
                     MURMUR_FLOAT(species[S].alignment.weight)});
        t.push_back({keep(k + "cohesion.radius"), ParamKind::Float, "units", 0, 10000, {}, "cohesion radius (within the species)",
                     MURMUR_FLOAT(species[S].cohesion.radius)});
        t.push_back({keep(k + "cohesion.weight"), ParamKind::Float, "", 0, 100, {}, "cohesion weight of this species",
                     MURMUR_FLOAT(species[S].cohesion.weight)});
        t.push_back({keep(k + "fov_deg"), ParamKind::Float, "degrees", 0, 360, {}, "field of view of this species",
                     MURMUR_FLOAT(species[S].fov_deg)});
        t.push_back({keep(k + "min_speed"), ParamKind::Float, "units/s", 0, 10000, {}, "lowest speed of this species",
                     MURMUR_FLOAT(species[S].min_speed)});
        t.push_back({keep(k + "max_speed"), ParamKind::Float, "units/s", 0.001, 10000, {}, "highest speed of this species",
                     MURMUR_FLOAT(species[S].max_speed)});
        t.push_back({keep(k + "max_force"), ParamKind::Float, "units/s^2", 0, 100000, {}, "this species' max_force (steering clamp; graded and gloss scale)",
                     MURMUR_FLOAT(species[S].max_force)});
        t.push_back({keep(k + "dc.preferred_distance"), ParamKind::Float, "units", 0, 10000, {},
                     "decarpentier: distance this species keeps from each of its three neighbours", MURMUR_FLOAT(species[S].dc.preferred_distance)});
        t.push_back({keep(k + "dc.accel_forward"), ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier: this species' largest speed-up",
                     MURMUR_FLOAT(species[S].dc.accel_forward)});
        t.push_back({keep(k + "dc.brake"), ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier: this species' largest slow-down",
                     MURMUR_FLOAT(species[S].dc.brake)});
        t.push_back({keep(k + "dc.accel_side"), ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier: this species' largest turning acceleration",
                     MURMUR_FLOAT(species[S].dc.accel_side)});
        t.push_back({keep(k + "dc.accel_up"), ParamKind::Float, "units/s^2", 0, 100000, {}, "decarpentier: this species' largest acceleration along its up axis",
                     MURMUR_FLOAT(species[S].dc.accel_up)});
        t.push_back({keep(k + "dc.smoothing"), ParamKind::Float, "", 0, 0.99, {}, "decarpentier: share of the previous speed this species keeps each step",
                     MURMUR_FLOAT(species[S].dc.smoothing)});
    }
}

std::vector<ParamInfo> makeTable();

// The style key's choices and help from the registry, and each style's own keys right after it.
void addStyleKeys(std::vector<ParamInfo>& t) {
    auto at = std::find_if(t.begin(), t.end(), [](const ParamInfo& i) { return std::string_view(i.key) == "style"; });
    std::string help;
    std::vector<ParamInfo> own;
    for (const StyleInfo& s : styles()) {
        at->choices.push_back(s.name);
        help += std::string(help.empty() ? "" : "; ") + s.name + ": " + s.summary;
        own.insert(own.end(), s.keys.begin(), s.keys.end());
    }
    at->max = double(at->choices.size() - 1);
    at->help = keep(help);
    t.insert(at + 1, own.begin(), own.end());
}

const std::vector<ParamInfo>& table() {
    static const std::vector<ParamInfo> t = makeTable();
    return t;
}

std::vector<ParamInfo> makeTable() {
    std::vector<ParamInfo> t = {
        {"dims", ParamKind::Int, "", 2, 3, {}, "dimensions of the world: 2 or 3",
         [](const Params& p) { return double(p.dims); }, [](Params& p, double v) { p.dims = int(v); }},
        {"world_size", ParamKind::Float, "units", 1, 100000, {}, "edge of the square (2D) or cube (3D) world",
         MURMUR_FLOAT(world_size)},
        {"bounds", ParamKind::Choice, "", 0, 2, {"wrap", "soft", "open"},
         "wrap: periodic world; soft: boids are turned back near the walls; open: open sky, no walls and no wrap (the "
         "world box is where the flock spawns)",
         [](const Params& p) { return double(p.bounds); },
         [](Params& p, double v) { p.bounds = Bounds(std::uint32_t(v)); }},
        {"margin", ParamKind::Float, "units", 0, 50000, {}, "soft bounds: depth of the band where walls push back (at most world_size/2)",
         MURMUR_FLOAT(margin)},
        {"turn", ParamKind::Float, "units/s^2", 0, 100000, {}, "soft bounds: wall push at one margin's depth, growing linearly with depth",
         MURMUR_FLOAT(turn)},
        {"style", ParamKind::Choice, "", 0, 0, {}, "", [](const Params& p) { return double(p.style); },
         [](Params& p, double v) { p.style = Style(std::uint32_t(v)); }},
        {"update", ParamKind::Choice, "", 0, 1, {"parallel", "sequential"},
         "parallel: every boid steps from the same state; sequential: one after another in id order, in place, each seeing "
         "the boids before it already moved (at most 1024 boids)",
         [](const Params& p) { return double(p.update); }, [](Params& p, double v) { p.update = UpdateOrder(std::uint32_t(v)); }},
        {"integrator", ParamKind::Choice, "", 0, 1, {"semi_implicit", "explicit"},
         "semi_implicit: the position moves with the new velocity; explicit: with the old one (Euler)",
         [](const Params& p) { return double(p.integrator); },
         [](Params& p, double v) { p.integrator = Integrator(std::uint32_t(v)); }},
        {"speed_limit", ParamKind::Choice, "", 0, 1, {"off", "on"},
         "on: speeds are clamped into [min_speed, max_speed] after the rules; off: only the rules shape the speed",
         [](const Params& p) { return p.speed_limit ? 1.0 : 0.0; }, [](Params& p, double v) { p.speed_limit = v != 0.0; }},
        {"separation.radius", ParamKind::Float, "units", 0, 10000, {}, "separation neighbourhood radius (at most world_size/2 in wrap)",
         MURMUR_FLOAT(species[0].separation.radius)},
        {"separation.weight", ParamKind::Float, "", 0, 100, {}, "separation weight", MURMUR_FLOAT(species[0].separation.weight)},
        {"alignment.radius", ParamKind::Float, "units", 0, 10000, {}, "alignment neighbourhood radius (at most world_size/2 in wrap)",
         MURMUR_FLOAT(species[0].alignment.radius)},
        {"alignment.weight", ParamKind::Float, "", 0, 100, {}, "alignment weight", MURMUR_FLOAT(species[0].alignment.weight)},
        {"cohesion.radius", ParamKind::Float, "units", 0, 10000, {}, "cohesion neighbourhood radius (at most world_size/2 in wrap)",
         MURMUR_FLOAT(species[0].cohesion.radius)},
        {"cohesion.weight", ParamKind::Float, "", 0, 100, {}, "cohesion weight", MURMUR_FLOAT(species[0].cohesion.weight)},
        {"fov_deg", ParamKind::Float, "degrees", 0, 360, {}, "full field-of-view cone angle; 360 sees all around",
         MURMUR_FLOAT(species[0].fov_deg)},
        {"min_speed", ParamKind::Float, "units/s", 0, 10000, {}, "lowest speed of a moving boid (at most max_speed)",
         MURMUR_FLOAT(species[0].min_speed)},
        {"max_speed", ParamKind::Float, "units/s", 0.001, 10000, {}, "highest speed", MURMUR_FLOAT(species[0].max_speed)},
        {"max_force", ParamKind::Float, "units/s^2", 0, 100000, {}, "steering: clamp on each rule's steer (also influences); graded and gloss: the rules' scale of acceleration",
         MURMUR_FLOAT(species[0].max_force)},
        {"dt", ParamKind::Float, "s", 0.0001, 1, {}, "time step", MURMUR_FLOAT(dt)},
        {"wander", ParamKind::Float, "units/s^2", 0, 100000, {},
         "random push per boid and step: uniform in [-1, 1] on each axis times this (0: off)", MURMUR_FLOAT(wander)},
        {"wind.x", ParamKind::Float, "units/s^2", -1000, 1000, {}, "wind: constant acceleration on every boid, x", MURMUR_FLOAT(wind.x)},
        {"wind.y", ParamKind::Float, "units/s^2", -1000, 1000, {}, "wind, y", MURMUR_FLOAT(wind.y)},
        {"wind.z", ParamKind::Float, "units/s^2", -1000, 1000, {}, "wind, z (3D only)", MURMUR_FLOAT(wind.z)},
        {"attractor.x", ParamKind::Float, "units", -100000, 100000, {}, "attractor (tend to place): x", MURMUR_FLOAT(attractor.at.x)},
        {"attractor.y", ParamKind::Float, "units", -100000, 100000, {}, "attractor: y", MURMUR_FLOAT(attractor.at.y)},
        {"attractor.z", ParamKind::Float, "units", -100000, 100000, {}, "attractor: z (3D only)", MURMUR_FLOAT(attractor.at.z)},
        {"attractor.weight", ParamKind::Float, "", 0, 100, {}, "attractor weight; 0 switches it off", MURMUR_FLOAT(attractor.weight)},
        {"trap.stiffness", ParamKind::Float, "1/s^2", 0, 10000, {},
         "harmonic trap: every boid is pulled toward the trap's centre with -stiffness x (p - centre) (a constant-speed "
         "style turns by it); 0 switches it off",
         MURMUR_FLOAT(trap.stiffness)},
        {"trap.x", ParamKind::Float, "units", -100000, 100000, {}, "harmonic trap: its centre's offset from the world box's centre, x",
         MURMUR_FLOAT(trap.offset.x)},
        {"trap.y", ParamKind::Float, "units", -100000, 100000, {}, "harmonic trap: the centre's offset, y", MURMUR_FLOAT(trap.offset.y)},
        {"trap.z", ParamKind::Float, "units", -100000, 100000, {}, "harmonic trap: the centre's offset, z (3D only)",
         MURMUR_FLOAT(trap.offset.z)},
        {"repeller.x", ParamKind::Float, "units", -100000, 100000, {}, "repeller (flee a place): x", MURMUR_FLOAT(repeller.at.x)},
        {"repeller.y", ParamKind::Float, "units", -100000, 100000, {}, "repeller: y", MURMUR_FLOAT(repeller.at.y)},
        {"repeller.z", ParamKind::Float, "units", -100000, 100000, {}, "repeller: z (3D only)", MURMUR_FLOAT(repeller.at.z)},
        {"repeller.weight", ParamKind::Float, "", 0, 100, {}, "repeller weight; 0 switches it off", MURMUR_FLOAT(repeller.weight)},
        {"repeller.radius", ParamKind::Float, "units", 0, 100000, {}, "the repeller acts within this distance", MURMUR_FLOAT(repeller.radius)},
        {"scatter", ParamKind::Choice, "", 0, 1, {"off", "on"}, "the startled flock: while on, cohesion pushes apart",
         [](const Params& p) { return p.scatter ? 1.0 : 0.0; }, [](Params& p, double v) { p.scatter = v != 0.0; }},
        {"neighbour_cap", ParamKind::Int, "", 0, 32, {}, "consider only the k nearest neighbours within the radii (0: all)",
         [](const Params& p) { return double(p.neighbour_cap); }, [](Params& p, double v) { p.neighbour_cap = std::uint32_t(v); }},
        {"topological.count", ParamKind::Float, "", 0, 64, {},
         "adaptive topological radius: boids wanted within each boid's own search radius, itself included (0: off; "
         "starlings 6.5)",
         MURMUR_FLOAT(topological.count)},
        {"topological.max_radius", ParamKind::Float, "units", 0.001, 100000, {},
         "adaptive topological radius: the most a boid's search radius grows to (neighbours lie within the rules' radii too)",
         MURMUR_FLOAT(topological.max_radius)},
        {"topological.rate", ParamKind::Float, "", 0, 1, {}, "adaptive topological radius: share of the way it moves each step",
         MURMUR_FLOAT(topological.rate)},
        {"spawn.radius", ParamKind::Float, "units", 0, 100000, {},
         "spawn boids uniformly in a ball (2D: a disc) of this radius at the world's centre (at most world_size/2); 0: the whole world",
         MURMUR_FLOAT(spawn_radius)},
        {"spawn.heading", ParamKind::Float, "", 0, 1, {},
         "spawn directions turned toward +x: each is (1 - this) x its random direction + this x (1, 0, 0), made unit; 0: random, 1: all along +x",
         MURMUR_FLOAT(spawn_heading)},
        {"colour", ParamKind::Choice, "", 0, 4, {"species", "heading", "speed", "neighbours", "dusk"},
         "view only: the window and screenshots colour boids by species (predators red), heading, speed or neighbour "
         "count; or dusk: a dusk sky behind dark, semi-opaque birds, darker where denser and where their wings face the "
         "eye (banking shows as bands), fading with distance",
         [](const Params& p) { return double(p.colour); }, [](Params& p, double v) { p.colour = std::uint32_t(v); }},
        {"draw", ParamKind::Choice, "", 0, 4, {"auto", "meshes", "points", "splats", "flat"},
         "view only: boids drawn as meshes (a triangle or dart along the heading), points, density splats (summed, "
         "tone-mapped: a pixel's mean colour, brighter where more boids share it), or flat darts (3D: a triangle a boid, "
         "the largest of the dart's outline as seen, no wing beats); auto, judged where the flock is on screen: splats when "
         "the meshes would cover the flock's part of the image twice over, points when a boid at the flock's depth would "
         "be drawn under 3 pixels, flat darts under 12, meshes otherwise",
         [](const Params& p) { return double(p.draw); }, [](Params& p, double v) { p.draw = std::uint32_t(v); }},
        {"camera", ParamKind::Choice, "", 0, 3, {"auto", "world", "follow", "ground"},
         "view only: world frames the world box (a flock in a small part of it: the flock, at the start and a reset); "
         "follow keeps the flock framed as it moves (smoothed); ground watches it from the ground below, looking up "
         "(3D; 2D: follow); auto: follow in open sky, world otherwise",
         [](const Params& p) { return double(p.camera); }, [](Params& p, double v) { p.camera = std::uint32_t(v); }},
        {"group_radius", ParamKind::Float, "units", 0, 100000, {},
         "measures only: the group measures (groups, milling, the largest groups' figures) link boids within this "
         "distance (0: the style's own, the alignment radius for most styles); in wrap mode at most world_size/2",
         MURMUR_FLOAT(group_radius)},
        {"boid_length", ParamKind::Float, "units", 0, 100000,  {},
         "view only: a boid's drawn length, nose to tail (0: automatic, 0.6 separation radii within 0.5 % to 2 % of the "
         "world); never under the view's smallest size in pixels",
         MURMUR_FLOAT(boid_length)},
        {"leader.enabled", ParamKind::Choice, "", 0, 1, {"off", "on"},
         "Processing's mouse-led boid: boid 0 moves to leader.x/y/z (the pointer, in the window); the others treat it as a flockmate",
         [](const Params& p) { return p.leader ? 1.0 : 0.0; }, [](Params& p, double v) { p.leader = v != 0.0; }},
        {"leader.x", ParamKind::Float, "units", -100000, 100000, {}, "where the leader boid is led: x", MURMUR_FLOAT(leader_at.x)},
        {"leader.y", ParamKind::Float, "units", -100000, 100000, {}, "where the leader boid is led: y", MURMUR_FLOAT(leader_at.y)},
        {"leader.z", ParamKind::Float, "units", -100000, 100000, {}, "where the leader boid is led: z (3D only)", MURMUR_FLOAT(leader_at.z)},
        {"perch.enabled", ParamKind::Choice, "", 0, 1, {"off", "on"},
         "perching: boids reaching the ground (y = perch.ground) land, rest, then rejoin",
         [](const Params& p) { return p.perching ? 1.0 : 0.0; }, [](Params& p, double v) { p.perching = v != 0.0; }},
        {"perch.ground", ParamKind::Float, "units", -100000, 100000, {}, "ground level on the y axis", MURMUR_FLOAT(perch_ground)},
        {"perch.min_time", ParamKind::Float, "s", 0, 3600, {}, "shortest rest on the ground (at most perch.max_time)", MURMUR_FLOAT(perch_min)},
        {"perch.max_time", ParamKind::Float, "s", 0, 3600, {}, "longest rest on the ground", MURMUR_FLOAT(perch_max)},
        {"obstacle_margin", ParamKind::Float, "units", 0, 10000, {}, "band around each obstacle where boids are pushed away",
         MURMUR_FLOAT(obstacle_margin)},
        {"obstacle_push", ParamKind::Float, "units/s^2", 0, 100000, {}, "push at an obstacle's surface, fading across the band",
         MURMUR_FLOAT(obstacle_push)},
        {"species_count", ParamKind::Int, "", 1, kMaxSpecies, {}, "species in use (speciesN.* keys; species 0's rules are the unprefixed keys)",
         [](const Params& p) { return double(p.species_count); }, [](Params& p, double v) { p.species_count = std::uint32_t(v); }},
        {"seed", ParamKind::Seed, "", 0, kMaxSeed, {}, "spawn seed: same seed, same start on every machine and backend",
         [](const Params& p) { return double(p.seed); },
         [](Params& p, double v) { p.seed = std::uint64_t(v); }},
        {"boids", ParamKind::Int, "", 0, kMaxBoids, {}, "number of boids (the GPU may hold fewer; it says so)",
         [](const Params& p) { return double(p.boids); },
         [](Params& p, double v) { p.boids = std::uint32_t(v); }},
    };
    addStyleKeys(t);
    addSpeciesKeys<0>(t);
    addSpeciesKeys<1>(t);
    addSpeciesKeys<2>(t);
    addSpeciesKeys<3>(t);
    return t;
}
#undef MURMUR_FLOAT

// Whole numbers in full (seeds up to 2^53 and counts print exactly); others to 9 digits.
std::string number(double v) {
    if (!(std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e17)) return numberText(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

std::span<const ParamInfo> paramTable() { return table(); }

const ParamInfo* findParam(std::string_view key) {
    for (const ParamInfo& info : table())
        if (key == info.key) return &info;
    return nullptr;
}

std::string formatValue(const ParamInfo& info, const Params& p) {
    const double v = info.get(p);
    if (info.kind == ParamKind::Choice) return info.choices.at(std::size_t(v));
    if (info.kind == ParamKind::Seed) return std::to_string(p.seed);
    if (info.kind == ParamKind::Float) return floatText(float(v));
    return number(v);
}

bool movesTheFlock(const ParamInfo& info) {
    const std::string_view help = info.help;
    return !help.starts_with("view only") && !help.starts_with("measures only");
}

std::vector<std::string> motionChanges(const Params& from, const Params& to) {
    std::vector<std::string> changes;
    for (const ParamInfo& info : table()) {
        if (!movesTheFlock(info)) continue;
        const std::string a = formatValue(info, from), b = formatValue(info, to);
        if (a != b) changes.push_back(std::string(info.key) + " from " + a + " to " + b);
    }
    if (from.obstacles != to.obstacles)
        changes.push_back("obstacles changed (" + std::to_string(from.obstacles.size()) + " before, " + std::to_string(to.obstacles.size()) +
                          " now)");
    return changes;
}

std::string floatText(float v) {
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : number(double(v));
}

double asTyped(float v) {
    const std::string text = floatText(v);
    double d = double(v);
    std::from_chars(text.data(), text.data() + text.size(), d);
    return d;
}

std::string hexEscape(unsigned char byte) {
    constexpr char kHex[] = "0123456789abcdef";
    return {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
}

std::string escapeControls(std::string_view text) {
    std::string shown;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            shown += c;
        } else {  // a control byte (escape, bell, NUL, newline) is shown, never sent to the terminal
            shown += hexEscape(byte);
        }
    }
    return shown;
}

std::string echo(std::string_view text) {
    constexpr std::size_t kMax = 60;
    const std::string shown = escapeControls(text.substr(0, kMax));
    return text.size() <= kMax ? shown : shown + "...";
}

std::vector<std::string> changedSettings(const Params& a, const Params& b) {
    std::vector<std::string> changed;
    for (const ParamInfo& info : paramTable()) {
        const std::string before = formatValue(info, a), after = formatValue(info, b);
        if (before != after) changed.push_back(std::string(info.key) + "=" + after);
    }
    return changed;
}

std::string startAgainFlags(const std::vector<std::string>& settings) {
    std::string flags;
    for (const std::string& s : settings) {
        if (s.starts_with("boids=")) flags += " --boids " + s.substr(6);
        else if (s.starts_with("dims=")) flags += " --dims " + s.substr(5);
        else flags += " --set " + s;
    }
    return flags;
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

const ParamInfo* nearestParam(std::string_view key) {
    const ParamInfo* best = nullptr;
    std::size_t best_d = std::max<std::size_t>(3, key.size() / 4 + 1);  // a slip, not another word
    for (const ParamInfo& info : paramTable())
        if (const std::size_t d = editDistance(key, info.key); d < best_d) best_d = d, best = &info;
    return best;
}

std::string rangeText(const ParamInfo& info) {
    if (info.kind == ParamKind::Choice) {
        std::string s;
        for (const char* c : info.choices) s += (s.empty() ? "" : "|") + std::string(c);
        return s;
    }
    if (info.kind == ParamKind::Int && info.max - info.min == 1.0)
        return number(info.min) + "|" + number(info.max);
    return "[" + number(info.min) + ", " + number(info.max) + "]";
}

std::optional<std::string> setFromNumber(const ParamInfo& info, double value, Params& p) {
    if (info.kind == ParamKind::Choice)
        return std::string("expected one of ") + rangeText(info);
    // A float key is checked as the float it will be stored as, against its bounds as floats: the
    // documented bounds themselves (dt=0.0001) are valid.
    const bool out = info.kind == ParamKind::Float
                         ? !(float(value) >= float(info.min) && float(value) <= float(info.max))
                         : !(value >= info.min && value <= info.max);
    if (!std::isfinite(value) || out)
    {
        std::string msg = number(value);
        msg += " is out of range ";
        msg += rangeText(info);
        if (info.unit[0]) msg.append(" ").append(info.unit);
        return msg;
    }
    if (info.kind != ParamKind::Float && value != std::floor(value))
        return number(value) + " is not a whole number; valid range " + rangeText(info);
    info.set(p, value);
    return std::nullopt;
}

std::optional<double> parseNumber(std::string_view text) {
    double v = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
    return v;
}

std::optional<std::string> setFromText(const ParamInfo& info, std::string_view text, Params& p) {
    if (info.kind == ParamKind::Choice) {
        for (std::size_t i = 0; i < info.choices.size(); ++i)
            if (text == info.choices[i]) {
                info.set(p, double(i));
                return std::nullopt;
            }
        return "'" + echo(text) + "' is not one of " + rangeText(info);
    }
    const std::optional<double> v = parseNumber(text);
    if (!v) return "'" + echo(text) + "' is not a number; valid range " + rangeText(info);
    return setFromNumber(info, *v, p);
}

}  // namespace murmur
