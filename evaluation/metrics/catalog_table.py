"""The metric catalog's text: one line a metric (id, unit, scope, definition) under its topic.

`evaluation.metrics.catalog` parses it into `Metric`s and explains the conventions the
definitions use; this module holds only the text, so that the catalog reads as one table.
"""

# One metric per line: name, unit, scope, definition; a leading `*` marks a priority metric; an
# indented line continues the definition above; `@topic` lines open a topic with its summary.
TABLE = """
@outcome How the game ended.
*result               code      game            Final outcome: 0 ongoing, 1 Team A won, 2 Team B
    won,
    3 draw.
*ticks                ticks     game            Number of ticks the game lasted.
points                points    team            1 for a win, 0.5 for a draw, 0 otherwise.
terminated            flag      game            1 if a team reached the score threshold.
truncated             flag      game            1 if the horizon ended the game.
team_size             slots     team            Number of active slots in the team.
@score The score and its course.
*final                points    team            The team's final score.
margin                points    team            Final score minus the opponent's final score.
red_zone_bonus        points    team            Extra points from opposing deaths in their own Red
    Zone.
lead_ticks            ticks     team            Ticks after which the team strictly led.
lead_changes          count     game            Times the strict lead passed from one team to the
    other.
first_point_tick      tick      team            Tick that brought the team's first point (-1 never).
max_deficit           points    team            Largest score deficit of the team after any tick.
@damage Damage dealt and taken at each stage of the engine's combat resolution.
dealt_raw             hp        slot            Raw damage the slot's accepted abilities carried.
dealt_source          hp        slot            Damage dealt after Burst and the Mage aura.
dealt_recipient       hp        slot            Damage dealt after the recipients' Warrior auras.
dealt_realised        hp        slot            Health the slot's damage actually removed.
taken_raw             hp        slot            Raw damage aimed at the slot.
taken_source          hp        slot            Damage taken, source stage.
taken_recipient       hp        slot            Damage taken after the slot's Warrior auras.
taken_realised        hp        slot            Health the slot actually lost to damage.
team_dealt_raw        hp        team            Raw damage the team dealt.
team_dealt_source     hp        team            Damage the team dealt, source stage.
team_dealt_recipient  hp        team            Damage the team dealt, recipient stage.
*team_dealt_realised  hp        team            Health the team's damage actually removed.
team_taken_raw        hp        team            Raw damage the team took.
team_taken_source     hp        team            Damage the team took, source stage.
team_taken_recipient  hp        team            Damage the team took, recipient stage.
team_taken_realised   hp        team            Health the team actually lost to damage.
pair_raw              hp        pair:enemy      Raw damage from source to target.
pair_source           hp        pair:enemy      Damage from source to target, source stage.
pair_recipient        hp        pair:enemy      Damage from source to target, recipient stage.
pair_realised         hp        pair:enemy      Health the source's damage removed from the target.
overkill_dealt        hp        slot            Recipient-stage damage dealt beyond what the health
    of the recipients could absorb.
overkill_taken        hp        slot            Recipient-stage damage taken beyond the slot's
    health.
hits_dealt            count     slot            Accepted abilities with positive raw damage.
hits_taken            count     slot            Damaging abilities received.
max_hit               hp        slot            Largest recipient-stage damage of one ability.
@healing Healing given and received at each stage.
given_raw             hp        slot            Raw healing of the slot's accepted abilities.
given_recipient       hp        slot            Healing given after the recipients' anti-heal.
given_realised        hp        slot            Health the slot's healing actually restored.
received_raw          hp        slot            Raw healing aimed at the slot.
received_recipient    hp        slot            Healing received after anti-heal.
received_realised     hp        slot            Health actually restored to the slot by healing.
team_raw              hp        team            Raw healing given by the team.
*team_realised        hp        team            Health actually restored by the team's healing.
pair_raw              hp        pair:ally       Raw healing from source to target.
pair_recipient        hp        pair:ally       Healing from source to target after anti-heal.
pair_realised         hp        pair:ally       Health the source's healing restored to the target.
overheal_given        hp        slot            Recipient-stage healing given beyond missing health.
overheal_received     hp        slot            Recipient-stage healing received beyond missing
    health.
heals_given           count     slot            Accepted abilities with positive raw healing.
heals_received        count     slot            Healing abilities received.
under_fire            hp        slot            Realised healing given to allies who took damage
    in the same tick.
@health Health over the game.
final                 hp        slot            Health at the end of the game (0 if dead).
mean_fraction         fraction  slot            Mean of health over max health across alive ticks.
min_fraction          fraction  slot            Lowest health over max health at an alive tick.
low_ticks             ticks     slot            Alive ticks with health below 25% of max health.
net_change            hp        slot            Realised healing and regeneration received minus
    realised damage taken.
team_mean_fraction    fraction  team            Mean over ticks of the team's living health over
    its total max health.
@kills Lethal contributions to opposing deaths.
contributions         count     pair:enemy      Deaths of the target that the source contributed to.
lethal_damage         hp        pair:enemy      Realised damage from source to target on the ticks
    the target died.
contributed           count     slot            Opposing deaths the slot contributed to.
single                count     slot            Contributions as the only contributor.
shared                count     slot            Contributions to deaths with two or more
    contributors.
team                  count     team            Opposing units that died.
team_single           count     team            Opposing deaths with exactly one contributor.
*team_shared          count     team            Opposing deaths with two or more contributors.
lethal_share          fraction  slot            Share of its team's kills the slot contributed to.
multi_ticks           ticks     team            Ticks on which two or more opponents died.
@deaths Deaths, where they happened and how long lives lasted.
count                 count     slot            Times the slot died.
red_zone              count     slot            Deaths that started the tick in the slot's own Red
    Zone (2 points for the opponent).
team                  count     team            Deaths of the team's units.
*team_red_zone        count     team            Deaths of the team's units in their own Red Zone.
first_tick            tick      slot            Tick of the slot's first death (-1 never).
alive_ticks           ticks     slot            Ticks the slot started alive.
mean_life             ticks     slot            Alive ticks per life (respawns + 1).
contributors_mean     count     slot            Mean number of lethal contributors per death.
@focus Focus fire and simultaneous attacks.
ganged_ticks          ticks     slot            Ticks the slot was damaged by two or more sources.
attackers_max         count     slot            Most sources that damaged the slot in one tick.
team_focus_ticks      ticks     team            Ticks on which two or more members damaged the same
    enemy.
concentration         fraction  team            Mean over ticks with team damage of the largest
    share of the team's raw damage on one enemy.
together              ticks     pair:mate       Ticks on which source and target damaged the same
    enemy.
target_switches       count     slot            Times the slot damaged a different enemy than the
    one it damaged last.
@trades Deaths answered by deaths.
death_balance         count     team            Opposing deaths minus own deaths.
answered_deaths       count     team            Own deaths followed by an opposing death within 3
    ticks (same tick included).
unanswered_deaths     count     team            Own deaths not answered within 3 ticks.
mutual_ticks          ticks     game            Ticks on which both teams lost a unit.
damage_ratio          ratio     team            Realised damage dealt over realised damage taken.
revenge               count     pair:enemy      Deaths of the target that the source contributed
    to within 3 ticks after the target contributed to the death of an ally of the source.
@control Stuns and slows: time controlled and what was done to controlled units.
stunned_ticks         ticks     slot            Alive ticks the slot started stunned.
slowed_ticks          ticks     slot            Alive ticks the slot started slowed.
controlled_ticks      ticks     slot            Alive ticks the slot started stunned or slowed.
*team_controlled_ticks ticks    team            Controlled ticks summed over the team's units.
stuns_landed          count     pair:enemy      Abilities of the source that applied or refreshed
    a stun on the target.
slows_landed          count     pair:enemy      Abilities of the source that applied or refreshed
    a slow on the target.
pair_on_controlled    hp        pair:enemy      Realised damage from source to target while the
    target was controlled.
damage_on_controlled  hp        slot            Realised damage the slot dealt to controlled units.
kills_on_controlled   count     slot            Lethal contributions to units that died while
    controlled.
@status Status channel lifecycles on each recipient (channels of RULES 2.3).
{status_rows}
refreshed             count     slot            Re-applications onto a running counter, any channel.
expired               count     slot            Channels that aged to zero.
cleared               count     slot            Channels cleared by the slot's death.
broken                count     slot            Trap stuns broken by damage.
@mage The Mage's damage aura and Burst.
aura_cover            ticks     pair:Mage>ally  Ticks the Mage's aura covered the ally (itself
    included).
aura_bonus            hp        pair:Mage>ally  Source-stage damage the aura added to the ally's
    damage, split evenly over the covering Mages.
aura_bonus_total      hp        slot:Mage       Damage the Mage's aura added to all covered allies.
aura_allies           count     slot:Mage       Mean number of teammates covered per alive tick.
bursts                count     slot:Mage       Burst activations.
burst_damage          hp        slot:Mage       Source-stage damage dealt while Burst was active.
burst_bonus           hp        slot:Mage       Source-stage damage that Burst added.
burst_kills           count     slot:Mage       Lethal contributions while Burst was active.
@warrior The Warrior's mitigation aura and Charge.
aura_cover            ticks     pair:Warrior>ally Ticks the Warrior's aura covered the ally
    (itself included).
aura_saved            hp        pair:Warrior>ally Damage the aura kept off the ally (source minus
    recipient stage), split evenly over the covering Warriors.
aura_saved_total      hp        slot:Warrior    Damage the Warrior's aura kept off all allies.
charges               count     slot:Warrior    Charge activations.
charge_distance       units     slot:Warrior    Map units travelled by Charge.
charge_damage         hp        slot:Warrior    Realised damage of Charges.
charge_kills          count     slot:Warrior    Lethal contributions by Charges.
taken_share           fraction  slot:Warrior    Share of the team's realised damage taken that the
    Warrior took.
@hunter The Hunter's slowing shots and Trap.
slows                 count     slot:Hunter     Accepted Basic shots (each applies the Hunter slow).
traps                 count     slot:Hunter     Trap activations.
trap_damage           hp        slot:Hunter     Realised damage of Traps.
traps_broken          count     slot:Hunter     Traps that ended broken by damage.
traps_expired         count     slot:Hunter     Traps that ran their full duration.
traps_lethal          count     slot:Hunter     Traps that ended with the trapped unit's death.
breaks                count     pair:enemy      Ticks on which the source's damage broke the
    target's Trap stun.
@rogue The Rogue's Poison and anti-heal.
poisons               count     slot:Rogue      Poison activations.
poison_damage         hp        slot:Rogue      Realised damage of Poisons.
poison_kills          count     slot:Rogue      Deaths of units the Rogue poisoned within the 5
    ticks up to the death.
priority_share        fraction  slot:Rogue      Share of the Rogue's realised damage dealt to Mages
    and Priests.
heal_denied           hp        slot            Healing withheld from the slot by anti-heal (raw
    minus recipient stage, plus the halved regeneration).
team_heal_denied      hp        team            Healing withheld by anti-heal from the team's units.
@priest The Priest's healing, rescues and Freedom.
efficiency            fraction  slot:Priest     Realised over raw healing given.
overheal              hp        slot:Priest     Recipient-stage healing given beyond missing health.
holy_words            count     slot:Priest     Holy Word activations.
holy_word_healing     hp        slot:Priest     Realised healing of Holy Words.
self_heal             hp        slot:Priest     Realised healing the Priest gave itself.
rescues               count     pair:Priest>ally Ticks the ally survived damage at least its
    health, healed by the Priest that tick.
rescues_total         count     slot:Priest     Rescues by the Priest, all allies.
freedoms              count     slot:Priest     Freedom applications (accepted Basic heals).
freedom_bound         count     slot:Priest     Next-tick moves of healed allies that the Freedom
    floor sped up (slowed, not stunned, unshielded).
@cooldown Ultimate cooldown use.
started               count     slot            Cooldowns started (Ultimates used).
ready_events          count     slot            Times the cooldown reached zero.
ready_idle_ticks      ticks     slot            Alive, unshielded ticks with the Ultimate ready and
    not used.
utilisation           fraction  slot            Share of ticks spent with the Ultimate cooling
    down.
first_use_tick        tick      slot            Tick of the first Ultimate (-1 never).
mean_delay            ticks     slot            Mean ticks from the Ultimate becoming ready to its
    next use, time dead included.
@abilities Basic and Ultimate actions.
basics                count     slot            Accepted Basic abilities.
ultimates             count     slot            Accepted Ultimates.
idle_ticks            ticks     slot            Alive, unshielded ticks with no accepted ability.
basic_hits            count     pair:any        Accepted Basics from source to target.
ultimate_hits         count     pair:any        Accepted targeted Ultimates from source to target.
damage_per_hit        hp        slot            Mean recipient-stage damage per damaging ability.
action_rate           fraction  slot            Share of alive, unshielded ticks with an accepted
    ability.
@regen Out-of-combat regeneration.
total                 hp        slot            Health regenerated.
ticks                 ticks     slot            Ticks with positive regeneration.
team                  hp        team            Health regenerated by the team's units.
combat_ticks          ticks     slot            Alive ticks started in combat (countdown above 0).
combat_resets         count     slot            Ticks the slot was a combat participant.
share                 fraction  slot            Regeneration over regeneration plus realised
    healing received.
@respawn Respawns, time dead and spawn shields.
count                 count     slot            Respawns.
dead_ticks            ticks     slot            Ticks the slot started dead.
team_dead_ticks       ticks     team            Dead ticks summed over the team's units.
shield_ticks          ticks     slot            Ticks the slot started alive with a spawn shield.
shield_expired        count     slot            Spawn shields that ran out.
waves                 count     team            Respawn waves of the team.
mean_wait             ticks     slot            Mean ticks from a death to the respawn after it.
@movement Distance travelled and standing still.
distance              units     slot            Map units moved, ordinary movement plus Charge.
walked                units     slot            Map units of ordinary movement.
mean_speed            units     slot            Ordinary movement per alive tick.
still_ticks           ticks     slot            Alive, unstunned ticks without any displacement.
stay_orders           count     slot            Alive ticks with an accepted Stay move.
team_distance         units     team            Map units moved by the team's units.
@positioning Distances to allies and enemies, depth and spread.
nearest_ally          units     slot            Mean distance to the nearest living teammate.
nearest_enemy         units     slot            Mean distance to the nearest living enemy.
alone_ticks           ticks     slot            Alive ticks with no living teammate within 4 units.
*team_alone_ticks     ticks     team            Alone ticks summed over the team's units.
pair_distance         units     pair:other      Mean distance while both units are alive.
pair_close            ticks     pair:mate       Ticks both alive within 2 units (aura radius).
depth                 units     slot            Mean distance from the own back edge.
enemy_half_ticks      ticks     slot            Alive ticks in the opponent's half of the map.
team_spread           units     team            Mean distance of living members to their centroid,
    over ticks with two or more alive.
@exposure Time in sight of enemies.
seen_ticks            ticks     slot            Alive ticks in direct sight of at least one enemy.
mean_watchers         count     slot            Mean number of enemies that saw the slot per alive
    tick.
hit_unseen            hp        slot            Realised damage taken from sources the slot did not
    see at tick start.
team_seen_ticks       ticks     team            Ticks on which an enemy saw at least one member.
@red_zone Time in each Red Zone and the 2-point deaths.
own_ticks             ticks     slot            Alive ticks in the slot's own team's Red Zone.
enemy_ticks           ticks     slot            Alive ticks in the opposing team's Red Zone.
team_own_ticks        ticks     team            Own-zone ticks summed over the team's units.
kills                 count     slot            Lethal contributions to opposing deaths in their
    own Red Zone.
damage_taken          hp        slot            Realised damage taken while in its own Red Zone.
@vision What each agent saw directly and through its teammates.
seen                  ticks     pair:enemy      Ticks the source saw the target directly.
relayed               ticks     pair:enemy      Ticks the source knew the target only from a
    teammate's relayed sighting.
enemies_seen          count     slot            Mean number of enemies seen directly per alive tick.
relay_gain            ticks     slot            Alive ticks on which a relay showed at least one
    enemy the slot did not see itself.
team_coverage         fraction  team            Mean share of living opponents that some member saw
    directly.
first_contact         tick      team            First tick a member saw an enemy (-1 never).
@legality Rejected actions and System fallbacks.
rejected_domain       count     slot            Ticks with an action out of the heads' domains.
rejected_move         count     slot            Ticks with an illegal move (turned into Stay).
rejected_combat       count     slot            Ticks with an illegal (target, Ultimate) pair.
fallbacks             count     slot            Ticks the slot's System gave no answer.
acceptance            fraction  slot            Share of ticks with nothing rejected.
team_rejections       count     team            Ticks with a rejection, summed over members.
team_fallbacks        count     team            Fallbacks summed over the team's units.
@teamwork Acting together.
shared_kills          count     pair:mate       Opposing deaths both source and target contributed
    to.
followups             count     pair:mate       Ticks the source damaged an enemy that the target
    had damaged on the tick before.
covered_ticks         ticks     slot            Alive ticks covered by a teammate's aura.
team_together_ticks   ticks     team            Ticks with members alive and none of them alone.
@tempo When things happened.
first_blood_tick      tick      game            Tick of the first death (-1 never).
first_blood_team      team      game            Team that scored the first death (2 both, -1 none).
damage_per_tick       hp        team            Realised damage dealt per tick.
kills_first_half      count     team            Kills in the first half of the ticks.
kills_second_half     count     team            Kills in the second half of the ticks.
longest_quiet         ticks     game            Longest run of ticks without any damage.
"""
