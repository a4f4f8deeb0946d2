-- ~/.wezterm.lua: every WezTerm tab and pane is a cordon session.
local wezterm = require 'wezterm'
local config = wezterm.config_builder()
config.default_prog = { 'cordon', 'run' }
-- Offline by default:
-- config.default_prog = { 'cordon', 'run', '--no-network' }
return config
