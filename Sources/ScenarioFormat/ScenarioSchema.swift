public import Fakes
import Foundation
import Services

/// The JSON Schema of `scenario.yaml`, for editors to validate and complete a daemon's scenario files. It is the
/// same for every daemon but for the Model names and the team's services, so each daemon prints its own (`NAME --print-schema`);
/// `schema/scenario.schema.json` is scenariod's, and a test keeps it equal to what scenariod prints.
public enum ScenarioSchema {
    /// The schema naming `models` as the Models a scenario may pick, with a section for each of `services`, as
    /// pretty-printed JSON.
    public static func json(models: [String], services: [ServiceDefinition] = []) -> String {
        let names = models.sorted().map { "        \(quoted($0))" }.joined(separator: ",\n")
        let network = tail.range(of: "    \"network\": {")!.lowerBound
        let sections = services.sorted { $0.name < $1.name }.map(section).joined()
        return head + "\n      \"enum\": [\n" + names + "\n      ],\n" + tail[..<network] + sections + tail[network...]
    }

    /// A team service's section: its state to full depth (nested objects, lists, maps, enum values) as its
    /// `Decodable` conformance reads it, each value's default from the initial state, or `live` when the service
    /// has a live implementation.
    private static func section(_ service: ServiceDefinition) -> String {
        let initialState = service.encode(service.initialState)
        var state = schema(of: service.shape, initial: initialState)
        // The initial state names every field it encodes, even one after a field the shape reader could not pass.
        if case .object(let initial) = initialState, var properties = state["properties"] as? [String: Any] {
            for (name, value) in initial where value != .null && properties[name] == nil {
                properties[name] = ["type": jsonType(of: value), "default": value.foundationObject]
            }
            state["properties"] = properties
        }
        let merging = "merged over its initial state and, with 'extends', over the parent's section"
        var schema: [String: Any] = ["description": "\(service.description). The fake's state (\(service.stateType)), \(merging)."]
        if service.hasLive {
            schema["description"] = "\(service.description). The fake's state (\(service.stateType)), \(merging); or 'live'."
            schema["oneOf"] = [["const": "live"], state]
        } else {
            schema.merge(state) { first, _ in first }
        }
        let data = (try? JSONSerialization.data(withJSONObject: [service.name: schema], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        // Inside "properties", four spaces in, without the braces of the one-key object; each section ends with a comma.
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().dropLast()
        return lines.map { "  " + $0 }.joined(separator: "\n") + ",\n"
    }

    /// The JSON Schema of a value of `shape`. `initial` is the initial state's value here, when it has one: each
    /// scalar's and list's default. An object with an initial value is merged over it key by key, so it requires
    /// nothing; one without (a list's element, an optional that is nil at first) requires its required keys.
    static func schema(of shape: ValueShape, initial: JSONValue?) -> [String: Any] {
        var schema: [String: Any]
        switch shape {
        case .string(let format):
            schema = ["type": "string"]
            if let format { schema["format"] = format }
        case .integer: schema = ["type": "integer"]
        case .number: schema = ["type": "number"]
        case .boolean: schema = ["type": "boolean"]
        case .oneOf(let values): schema = ["enum": values.map(\.foundationObject)]
        case .list(let element): schema = ["type": "array", "items": Self.schema(of: element, initial: nil)]
        case .map(let element): schema = ["type": "object", "additionalProperties": Self.schema(of: element, initial: nil)]
        case .object(let fields, let complete):
            let members: [String: JSONValue]? = if case .object(let members)? = initial { members } else { nil }
            var properties: [String: Any] = [:]
            for field in fields {
                var property = Self.schema(of: field.shape, initial: members?[field.name])
                if !field.required { property = nullable(property) }
                properties[field.name] = property
            }
            schema = ["type": "object", "properties": properties, "additionalProperties": !complete]
            let required = fields.filter(\.required).map(\.name)
            if members == nil, !required.isEmpty { schema["required"] = required }
        case .unknown: schema = [:]
        }
        if let initial, initial != .null, !shape.isObject { schema["default"] = initial.foundationObject }
        return schema
    }

    /// `schema`, also allowing null (an optional key, which null leaves out).
    private static func nullable(_ schema: [String: Any]) -> [String: Any] {
        var schema = schema
        if let type = schema["type"] as? String {
            schema["type"] = [type, "null"]
        } else if let values = schema["enum"] as? [Any] {
            schema["enum"] = values + [NSNull()]
        }
        return schema
    }

    private static func jsonType(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    // The schema's text around the Model names, kept as written (key order and layout are for people).
    private static let head = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://scenariod.invalid/schema/scenario.schema.json",
  "title": "scenariod scenario",
  "description": "scenarios/NAME/scenario.yaml: which Model a scenario runs and how each of its services behaves. See docs/writing-a-scenario.md.",
  "type": "object",
  "additionalProperties": false,
  "required": [
    "description"
  ],
  "properties": {
    "description": {
      "type": "string",
      "minLength": 1,
      "description": "One line saying what the scenario shows."
    },
    "model": {
      "type": "string",
"""#

    private static let tail = #"""
      "description": "The Model the scenario runs. Required unless inherited through 'extends'."
    },
    "extends": {
      "type": "string",
      "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$",
      "description": "Another scenario (a sibling directory name) whose settings this one starts from."
    },
    "clock": {
      "description": "The session's clock. Default: 2026-01-01T00:00:00Z, frozen. 'clock: system' is short for mode system.",
      "oneOf": [
        {
          "enum": [
            "frozen",
            "running",
            "system"
          ]
        },
        {
          "allOf": [
            {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "start": {
                  "type": "string",
                  "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$",
                  "description": "The instant the clock reads when a session starts (ISO 8601 with a time zone)."
                },
                "mode": {
                  "enum": [
                    "frozen",
                    "running",
                    "system"
                  ],
                  "description": "frozen: moves only when advanced or set. running: ticks in real time from start. system: the real time; cannot be moved, takes no start."
                },
                "timeZone": {
                  "type": "string",
                  "description": "The IANA time zone (Europe/London) people read this clock in: the dashboard shows the time there. Only for reading; the Model sees the same instant."
                }
              }
            },
            {
              "if": {
                "properties": {
                  "mode": {
                    "const": "system"
                  }
                },
                "required": [
                  "mode"
                ]
              },
              "then": {
                "not": {
                  "required": [
                    "start"
                  ]
                }
              }
            }
          ]
        }
      ]
    },
    "keyValue": {
      "type": "object",
      "additionalProperties": false,
      "description": "The key-value store: in memory from the seed (default), or durable in a database file.",
      "properties": {
        "seed": {
          "type": "object",
          "description": "Keys and their values (any JSON value). Wins over seedFile for the same key."
        },
        "seedFile": {
          "$ref": "#/$defs/fixturePath",
          "description": "A JSON file holding an object of keys to values, relative to the scenario directory."
        },
        "inheritSeed": {
          "type": "boolean",
          "description": "With extends: true (default) merges this seed over the parent's by key; false replaces the parent's seed, so its keys not given here are absent."
        },
        "store": {
          "enum": [
            "memory",
            "durable"
          ],
          "description": "memory (default): each session's own, reset restores the seed. durable: a SQLite file per scenario in the daemon's state directory, kept across restarts; the seed is written when it is created."
        }
      }
    },
    "random": {
      "description": "Where identifiers and random choices come from. Default: seed 0. 'random: system' is the system's generator (different every run).",
      "oneOf": [
        {
          "const": "system"
        },
        {
          "type": "object",
          "additionalProperties": false,
          "required": [
            "seed"
          ],
          "properties": {
            "seed": {
              "type": "integer",
              "minimum": 0,
              "description": "The same seed gives the same identifiers and choices in every session, and again after a reset."
            }
          }
        }
      ]
    },
    "schedule": {
      "description": "The order of work that is ready at the same moment: tasks the Model's actions make ready together, sleepers and responses due at the same instant. Without it, first-ready-first (what scenariod always did); a seed picks another order, the same in every session and run, so a seed names one interleaving.",
      "type": "object",
      "additionalProperties": false,
      "required": [
        "seed"
      ],
      "properties": {
        "seed": {
          "type": "integer",
          "minimum": 0,
          "description": "The same seed gives the same order in every session, and again after a reset, a rewind or a replay."
        }
      }
    },
    "network": {
      "description": "The network: fake (routes answer, nothing reaches the real network but live routes), live or record. 'network: live' is short for mode live.",
      "oneOf": [
        {
          "enum": [
            "fake",
            "live",
            "record"
          ]
        },
        {
          "allOf": [
            {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "unmatched": {
                  "$ref": "#/$defs/transportError",
                  "description": "The transport error a request matching no route gets. Default: connectionRefused."
                },
                "routes": {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/route"
                  },
                  "description": "Tried in order; the first route that matches a request answers it."
                },
                "mode": {
                  "enum": [
                    "fake",
                    "live",
                    "record"
                  ],
                  "description": "fake (default): routes answer; unmatched requests fail. live: routes answer first, the rest go to the real network. record: everything goes to the real network and is kept, to be saved as a scenario."
                },
                "timeouts": {
                  "type": "object",
                  "additionalProperties": false,
                  "properties": {
                    "connect": {
                      "$ref": "#/$defs/duration",
                      "description": "How long connecting may take. Default 10s."
                    },
                    "read": {
                      "$ref": "#/$defs/duration",
                      "description": "How long a server may stay silent. Default 30s."
                    }
                  },
                  "description": "Limits for requests that reach the real network."
                },
                "redact": {
                  "type": "array",
                  "items": {
                    "type": "string",
                    "pattern": "^/"
                  },
                  "description": "JSON pointers (/user/ssn) whose values a recording leaves out, besides the fields that are always secrets (password, token, access_token, client_secret, ...)."
                },
                "redirects": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 20,
                  "description": "How many redirects live requests follow. Default 5; 0 returns 3xx responses as they are."
                },
                "forward": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "string",
                    "pattern": "^(https?|wss?)://[^/?#]+$"
                  },
                  "propertyNames": {
                    "pattern": "^(https?|wss?)://[^/?#]+$"
                  },
                  "description": "Origins whose live requests go to another origin instead, e.g. https://api.example: http://127.0.0.1:8080."
                }
              }
            },
            {
              "if": {
                "properties": {
                  "mode": {
                    "enum": [
                      "live",
                      "record"
                    ]
                  }
                },
                "required": [
                  "mode"
                ]
              },
              "then": {
                "not": {
                  "required": [
                    "unmatched"
                  ]
                }
              }
            },
            {
              "if": {
                "properties": {
                  "mode": {
                    "const": "record"
                  }
                },
                "required": [
                  "mode"
                ]
              },
              "then": {
                "not": {
                  "required": [
                    "routes"
                  ]
                }
              }
            }
          ]
        }
      ]
    }
  },
  "$defs": {
    "fixturePath": {
      "type": "string",
      "minLength": 1,
      "not": {
        "anyOf": [
          {
            "pattern": "^/"
          },
          {
            "pattern": "(^|/)\\.\\.(/|$)"
          }
        ]
      },
      "description": "A path inside the scenario directory; absolute paths, '..' and symlinks that lead out are refused."
    },
    "duration": {
      "type": "string",
      "pattern": "^([0-9]{1,6}(\\.[0-9]{1,6})?(ms|s|m|h)){1,4}$",
      "description": "A number and a unit, repeated: 250ms, 2s, 1.5s, 15m, 1h30m; at most 4 parts of up to 6 digits."
    },
    "streamOffset": {
      "type": "string",
      "pattern": "^\\+?([0-9]{1,6}(\\.[0-9]{1,6})?(ms|s|m|h)){1,4}$",
      "description": "How long after the stream opens, on the session's clock: +200ms, 1.5s."
    },
    "stream": {
      "type": "object",
      "additionalProperties": false,
      "description": "The body streamed chunk by chunk on the session's clock: server-sent events, or raw text, each at an offset from the moment the stream opens.",
      "oneOf": [
        { "required": ["events"] },
        { "required": ["file"] }
      ],
      "properties": {
        "events": {
          "type": "array",
          "items": { "$ref": "#/$defs/streamItem" },
          "description": "In the order they arrive."
        },
        "file": {
          "$ref": "#/$defs/fixturePath",
          "description": "A .jsonl fixture (one event per line, with the keys of 'events') or an .sse transcript (each event's offset in a ': at +200ms' comment line)."
        },
        "end": {
          "enum": ["close", "stall", "drop"],
          "description": "After the last event: the server closes the stream (default), keeps it open and silent, or drops it with 'fault'."
        },
        "endAt": {
          "$ref": "#/$defs/streamOffset",
          "description": "When the end happens; default the last event's offset."
        },
        "fault": {
          "$ref": "#/$defs/transportError",
          "description": "With 'end: drop': the error the Model's read throws; default connectionReset."
        }
      }
    },
    "webSocket": {
      "type": "object",
      "additionalProperties": false,
      "description": "The server's side of a WebSocket conversation on the session's clock; status defaults to 101.",
      "properties": {
        "onConnect": { "type": "array", "items": { "$ref": "#/$defs/webSocketMessage" }, "description": "Sent once connected, each at its offset from the connection." },
        "replies": {
          "type": "array",
          "description": "The first reply whose 'when' matches the Model's message answers, each message at its offset from it.",
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": ["when", "send"],
            "properties": {
              "when": {
                "type": "object",
                "additionalProperties": false,
                "description": "Matches the Model's message as a request body: bodyText, body (a JSON subset), bodyFields.",
                "properties": {
                  "bodyText": { "$ref": "#/$defs/valueMatch" },
                  "body": {},
                  "bodyFields": { "type": "object", "propertyNames": { "pattern": "^/" }, "additionalProperties": { "$ref": "#/$defs/valueMatch" } }
                }
              },
              "send": { "type": "array", "items": { "$ref": "#/$defs/webSocketMessage" } },
              "once": { "type": "boolean", "description": "Answer one message only; later ones go on to the replies after it. Default false." }
            }
          }
        },
        "close": {
          "type": "object",
          "additionalProperties": false,
          "required": ["at"],
          "properties": {
            "at": { "$ref": "#/$defs/streamOffset" },
            "code": { "type": "integer", "minimum": 1000, "maximum": 4999, "description": "Default 1000." },
            "reason": { "type": "string" }
          }
        }
      }
    },
    "webSocketMessage": {
      "type": "object",
      "additionalProperties": false,
      "oneOf": [ { "required": ["text"] }, { "required": ["json"] }, { "required": ["binary"] } ],
      "properties": {
        "at": { "$ref": "#/$defs/streamOffset", "description": "Default the previous message's offset." },
        "text": { "type": "string" },
        "json": { "description": "Sent as compact JSON text." },
        "binary": { "type": "string", "description": "The bytes in base64." }
      }
    },
    "streamItem": {
      "type": "object",
      "additionalProperties": false,
      "description": "A server-sent event (data, with event, id and retry) or a chunk of raw text sent exactly as written (a malformed event, a chunked body).",
      "oneOf": [
        { "required": ["data"], "not": { "required": ["text"] } },
        { "required": ["text"], "not": { "anyOf": [ { "required": ["data"] }, { "required": ["event"] }, { "required": ["id"] }, { "required": ["retry"] } ] } }
      ],
      "properties": {
        "at": {
          "$ref": "#/$defs/streamOffset",
          "description": "Default the previous event's offset."
        },
        "event": { "type": "string", "pattern": "^[^\\r\\n]*$" },
        "id": { "type": ["string", "integer"] },
        "data": { "description": "Text is sent as is; any other value as JSON." },
        "retry": { "type": "integer", "minimum": 0 },
        "text": { "type": "string" }
      }
    },
    "transportError": {
      "enum": [
        "timeout",
        "connectionReset",
        "connectionRefused",
        "offline",
        "cancelled"
      ]
    },
    "textMap": {
      "type": "object",
      "additionalProperties": {
        "type": [
          "string",
          "number",
          "boolean"
        ]
      }
    },
    "valueMatch": {
      "description": "A value to equal, or one way to match: regex (the whole value), contains, present, absent, or a number comparison (lt, lte, gt, gte).",
      "oneOf": [
        { "type": ["string", "number", "boolean"] },
        {
          "type": "object",
          "additionalProperties": false,
          "minProperties": 1,
          "maxProperties": 1,
          "properties": {
            "regex": { "type": "string" },
            "contains": { "type": ["string", "number", "boolean"] },
            "present": { "const": true },
            "absent": { "const": true },
            "lt": { "type": "number" },
            "lte": { "type": "number" },
            "gt": { "type": "number" },
            "gte": { "type": "number" }
          }
        }
      ]
    },
    "matchMap": {
      "type": "object",
      "additionalProperties": { "$ref": "#/$defs/valueMatch" }
    },
    "route": {
      "if": { "type": "object", "required": ["extends"] },
      "then": { "$ref": "#/$defs/routePatch" },
      "else": { "$ref": "#/$defs/wholeRoute" }
    },
    "routePatch": {
      "type": "object",
      "additionalProperties": false,
      "required": ["extends"],
      "description": "A route of the extended scenario, changed only where this says: mappings (query, headers, bodyFields, response headers) merge by name, anything else written replaces the parent's; 'response' changes every answer of the route, 'responses' replaces them.",
      "not": { "required": ["response", "responses"] },
      "properties": {
        "extends": {
          "type": "string",
          "minLength": 1,
          "description": "The name of the extended scenario's route to change; the route keeps that name and place."
        },
        "name": { "type": "string", "minLength": 1, "description": "If given, the same as 'extends'." },
        "request": { "$ref": "#/$defs/request" },
        "response": { "$ref": "#/$defs/response" },
        "responses": { "type": "array", "minItems": 1, "items": { "$ref": "#/$defs/response" } },
        "afterLast": { "enum": ["repeat", "cycle"] },
        "live": { "type": "boolean" }
      }
    },
    "wholeRoute": {
      "type": "object",
      "additionalProperties": false,
      "required": [
        "name"
      ],
      "oneOf": [
        {
          "required": [
            "response"
          ],
          "not": {
            "required": [
              "live"
            ],
            "properties": {
              "live": {
                "const": true
              }
            }
          }
        },
        {
          "required": [
            "responses"
          ],
          "not": {
            "required": [
              "live"
            ],
            "properties": {
              "live": {
                "const": true
              }
            }
          }
        },
        {
          "required": [
            "live",
            "request"
          ],
          "properties": {
            "live": {
              "const": true
            }
          },
          "not": {
            "anyOf": [
              {
                "required": [
                  "response"
                ]
              },
              {
                "required": [
                  "responses"
                ]
              },
              {
                "required": [
                  "afterLast"
                ]
              }
            ]
          }
        }
      ],
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1,
          "description": "Unique in the scenario; names the route in the journal."
        },
        "request": {
          "$ref": "#/$defs/request"
        },
        "response": {
          "$ref": "#/$defs/response"
        },
        "responses": {
          "type": "array",
          "minItems": 1,
          "items": {
            "$ref": "#/$defs/response"
          },
          "description": "Successive matching requests get these in order."
        },
        "afterLast": {
          "enum": [
            "repeat",
            "cycle"
          ],
          "description": "After the last of 'responses': repeat it (default) or start again."
        },
        "live": {
          "type": "boolean",
          "description": "true: matching requests go to the real network (mixed mode); the route then has no response."
        }
      }
    },
    "request": {
      "type": "object",
      "additionalProperties": false,
      "description": "What a request must look like; every key given must agree, the others match anything.",
      "not": {
        "required": [
          "url",
          "urlPattern"
        ]
      },
      "properties": {
        "method": {
          "type": "string",
          "pattern": "^[A-Za-z]+$"
        },
        "url": {
          "type": "string",
          "pattern": "^(https?|wss?)://[^?]+$",
          "description": "The exact URL without its query."
        },
        "urlPattern": {
          "type": "string",
          "description": "A regular expression the whole URL (without query) must match."
        },
        "query": {
          "$ref": "#/$defs/matchMap",
          "description": "Query items and how each must look: a value to equal, or {regex|contains|present|absent|lt|lte|gt|gte: …}."
        },
        "headers": {
          "$ref": "#/$defs/matchMap",
          "description": "Header fields and how each must look: a value to equal, or {regex|contains|present|absent|lt|lte|gt|gte: …}."
        },
        "bodyText": {
          "$ref": "#/$defs/valueMatch",
          "description": "The whole body as text and how it must look: a value to equal, or {regex|contains|present|absent: …}; for bodies that are not JSON (GraphQL, forms, XML). An empty body is absent."
        },
        "body": {
          "description": "A JSON value the request body must contain (objects by subset)."
        },
        "bodyFields": {
          "type": "object",
          "propertyNames": { "pattern": "^/" },
          "additionalProperties": { "$ref": "#/$defs/valueMatch" },
          "description": "Fields of a JSON body by JSON pointer (/user/age) and how each must look."
        }
      }
    },
    "response": {
      "type": "object",
      "additionalProperties": false,
      "not": {
        "anyOf": [
          { "required": ["body", "bodyFile"] },
          { "required": ["body", "stream"] },
          { "required": ["bodyFile", "stream"] },
          { "required": ["webSocket", "body"] },
          { "required": ["webSocket", "bodyFile"] },
          { "required": ["webSocket", "stream"] }
        ]
      },
      "properties": {
        "status": {
          "type": "integer",
          "minimum": 100,
          "maximum": 599,
          "description": "Default 200."
        },
        "headers": {
          "$ref": "#/$defs/textMap"
        },
        "body": {
          "description": "Text is sent as is; any other value is sent as JSON."
        },
        "bodyFile": {
          "$ref": "#/$defs/fixturePath"
        },
        "stream": {
          "$ref": "#/$defs/stream"
        },
        "webSocket": {
          "$ref": "#/$defs/webSocket"
        },
        "template": {
          "type": "boolean",
          "description": "true: the body, header values and stream chunks are Mustache templates filled per request from request.method, request.url, request.path (.0, .1…), request.query.NAME, request.headers.NAME, request.body.FIELD and now (.date, .time, .epochSeconds, .epochMilliseconds, .httpDate), the session's virtual time."
        },
        "delay": {
          "$ref": "#/$defs/duration",
          "description": "Clock time before the answer arrives."
        },
        "fault": {
          "$ref": "#/$defs/transportError",
          "description": "Fail with this transport error instead of answering."
        },
        "after": {
          "description": "In 'responses': this answer applies once the named route has answered (times, default 1), whatever this route's own count: a read that a write changed. The first response has none; every later one of such a route does.",
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "route"
              ],
              "properties": {
                "route": {
                  "type": "string"
                },
                "times": {
                  "type": "integer",
                  "minimum": 1
                }
              }
            }
          ]
        }
      }
    }
  }
}
"""#
}

private extension ValueShape {
    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}

private extension JSONValue {
    /// The value as JSONSerialization writes it.
    var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): flag
        case .int(let number): number
        case .double(let number): number
        case .string(let text): text
        case .array(let items): items.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}
