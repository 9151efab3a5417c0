import ArgumentParser
import Foundation
import RialCodecs
import RialDetection
import RialEval

/// `rial-bench train`: fit the learned detection methods on labelled datasets.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the learned detection methods (texture/1) on labelled datasets.",
        subcommands: [Texture.self]
    )
}

extension TrainCommand {
    /// `rial-bench train texture --dataset MANIFEST ... --out FILE`.
    struct Texture: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Train the texture/1 classifier and write its model file.",
            discussion: """
                Describes every image of the training and validation splits with the texture/1 \
                features (16 full-resolution patches and a strided luma sample per image, in \
                parallel), fits an L2-regularised multinomial logistic regression by damped Newton \
                iterations, evaluates it on the validation split, and writes the model with its \
                provenance (manifest SHA-256s, splits, seed, class counts, validation confusion \
                matrix) as canonical JSON. Samples whose label is not a texture class (e.g. the \
                generic `screen`) are skipped and counted; samples whose image cannot be read are \
                reported and skipped. The result is the same for the same inputs and seed, \
                whatever --jobs is. --swift-out also writes the Swift source that embeds the model \
                as RialDetection's default (Sources/RialDetection/Texture/TextureModel+Default.swift). \
                --evaluate prints, for each held-out manifest, the mean score (p(real_scene)) per label, \
                the real-vs-attack AUC and the real scenes not classified real_scene (not recorded in \
                the model); --features-out writes the descriptor table for analysis.
                """)

        @Option(help: "A dataset manifest (repeatable).")
        var dataset: [String] = []

        @Option(help: "Where to write the model JSON.")
        var out: String

        @Option(help: "Seed of the weight initialisation.")
        var seed: UInt64 = 1

        @Option(help: "Split to fit on (repeatable; default: train).")
        var trainSplit: [DatasetSplit] = []

        @Option(help: "Split to validate on (repeatable; default: val).")
        var valSplit: [DatasetSplit] = []

        @Option(help: "L2 penalty on the weights, per sample.")
        var l2: Double = 0.01

        @Option(help: "model_id of the result.")
        var modelId: String = "texture-2"

        @OptionGroup var jobs: JobsOption

        @Option(help: "Also write the Swift source embedding the model (TextureModel+Default.swift).")
        var swiftOut: String?

        @Option(help: "After training, report scores on this held-out manifest (repeatable).")
        var evaluate: [String] = []

        @Option(help: "Split of the --evaluate manifests to report on (repeatable; default: every split).")
        var evaluateSplit: [DatasetSplit] = []

        @Option(
            help:
                "Write every described sample (training, validation, evaluation) as CSV: manifest, id, split, label, features."
        )
        var featuresOut: String?

        func validate() throws {
            if dataset.isEmpty { throw ValidationError("give at least one --dataset MANIFEST") }
            if !(l2.isFinite && l2 >= 0) { throw ValidationError("--l2 must be a finite number >= 0, got \(l2)") }
            if modelId.isEmpty { throw ValidationError("--model-id must not be empty") }
            let train = trainSplit.isEmpty ? [DatasetSplit.train] : trainSplit
            if let overlap = train.first(where: { (valSplit.isEmpty ? [.val] : valSplit).contains($0) }) {
                throw ValidationError("split '\(overlap.rawValue)' cannot be both a training and a validation split")
            }
        }

        func run() throws {
            var options = TextureTrainer.Options()
            options.trainSplits = trainSplit.isEmpty ? [.train] : trainSplit
            options.valSplits = valSplit.isEmpty ? [.val] : valSplit
            options.seed = seed
            options.jobs = jobs.count
            options.l2 = l2
            options.modelID = modelId
            options.tool = "rial-bench \(RialBenchVersion.string)"
            let trainer = TextureTrainer(options: options)

            let collection: TextureTrainer.Collection
            do {
                let progress = ProgressReporter.Deferred(label: "texture features")
                collection = try trainer.collect(manifests: dataset) { done, total in progress.update(done, of: total) }
            } catch {
                throw inputError(error)
            }
            for failure in collection.failedSamples.prefix(20) {
                Terminal.warning("\(failure.manifest): \(failure.sample): skipped: \(failure.reason)")
            }
            if collection.failedSamples.count > 20 {
                Terminal.warning(
                    "\(collection.failedSamples.count - 20) more samples skipped (see the model's failed_samples)")
            }
            let model: TextureModel
            do {
                model = try trainer.fit(collection)
            } catch {
                throw inputError(error)
            }
            let json: Data
            do {
                json = try model.canonicalJSON()
            } catch {
                throw CLIError.internalError("\(out): \(error.description)")
            }
            try write(json, to: out)
            if let swiftOut {
                try write(Data(TextureModelSource.swiftSource(json: json, model: model).utf8), to: swiftOut)
            }
            Terminal.out(Self.summary(model, sha256: SHA256Digest.hash(json), path: out))

            var described = collection.train + collection.validation
            for manifest in evaluate {
                let held: TextureTrainer.DescribedSamples
                do {
                    held = try trainer.describe(
                        manifests: [manifest], splits: evaluateSplit.isEmpty ? nil : Set(evaluateSplit),
                        jobs: jobs.count)
                } catch {
                    throw inputError(error)
                }
                for failure in held.failedSamples {
                    Terminal.warning("\(failure.manifest): \(failure.sample): not evaluated: \(failure.reason)")
                }
                described += held.examples
                Terminal.out(
                    Self.evaluationSummary(
                        TextureEvaluation(model: model, examples: held.examples),
                        manifest: manifest))
            }
            if let featuresOut {
                try write(Data(Self.csv(described).utf8), to: featuresOut)
            }
        }

        static func evaluationSummary(_ evaluation: TextureEvaluation, manifest: String) -> String {
            var lines = ["", "held-out \(manifest): \(evaluation.samples.count) samples"]
            var table = TextTable(["label", "samples", "mean score", "classified as label", "recaptured"])
            for row in evaluation.meanScoreByLabel {
                let ofLabel = evaluation.samples.filter { $0.label == row.label }
                table.append([
                    row.label.rawValue, String(row.count), String(format: "%.3f", row.mean),
                    String(ofLabel.filter(\.isCorrect).count), String(ofLabel.filter(\.isLikelyRecaptured).count),
                ])
            }
            lines.append(table.render())
            lines.append(
                "accuracy: " + (evaluation.accuracy.map { String(format: "%.3f", $0) } ?? "-")
                    + "; AUC real vs attack (score = p(real_scene)): "
                    + (evaluation.realVersusAttackAUC.map { String(format: "%.3f", $0) } ?? "-"))
            let passed = evaluation.samples.filter { !$0.label.isBonaFide && $0.score > 0.5 }
            if !passed.isEmpty {
                lines.append("attacks scoring above 0.5 (\(passed.count)):")
                for sample in passed {
                    lines.append(
                        String(
                            format: "  %@ (%@): %@, score %.3f", sample.id, sample.label.rawValue,
                            sample.classification.rawValue, sample.score))
                }
            }
            let misjudged = evaluation.misjudgedRealScenes
            if !misjudged.isEmpty {
                lines.append("real scenes not classified real_scene (\(misjudged.count)):")
                for sample in misjudged {
                    lines.append(
                        String(
                            format: "  %@: %@, score %.3f%@", sample.id, sample.classification.rawValue,
                            sample.score, sample.isLikelyRecaptured ? ", likely recaptured" : ""))
                }
            }
            return lines.joined(separator: "\n")
        }

        static func csv(_ examples: [TextureExample]) -> String {
            func quoted(_ text: String) -> String {
                text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
                    ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
            }
            var lines = [(["manifest", "id", "split", "label"] + TextureFeatures.names).joined(separator: ",")]
            for e in examples {
                lines.append(
                    ([quoted(e.manifest), quoted(e.id), e.split.rawValue, e.label.rawValue]
                        + e.features.map { String($0) }).joined(separator: ","))
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// Bad input (exit 65) with one line per problem, each naming its manifest.
        private func inputError(_ error: TextureTrainingError) -> CLIError {
            switch error {
            case .manifest(let datasetError): .badInput(lines: datasetError.problems.map(\.description))
            default: .badInput("\(dataset.joined(separator: ", ")): \(error.description)")
            }
        }

        private func write(_ data: Data, to path: String) throws {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw CLIError.internalError("\(path): cannot write: \(error.localizedDescription)")
            }
        }

        static func summary(_ model: TextureModel, sha256: String, path: String) -> String {
            let p = model.provenance
            func counts(_ c: [String: Int]) -> String {
                model.classes.map { "\($0.rawValue) \(c[$0.rawValue] ?? 0)" }.joined(separator: ", ")
            }
            var lines = [
                "texture model \(model.modelID): \(path) (sha256 \(sha256))",
                "train: \(counts(p.trainClassCounts)); validation: \(counts(p.valClassCounts))",
                "skipped labels: \(p.skippedLabels.isEmpty ? "none" : p.skippedLabels.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); failed samples: \(p.failedSamples.count)",
                String(
                    format: "fit: %d Newton iterations, loss %.4f, training accuracy %.3f",
                    p.hyperparameters.iterations, p.hyperparameters.finalLoss, p.training.accuracy ?? .nan),
            ]
            if let validation = p.validation {
                lines.append(
                    String(
                        format: "validation accuracy %.3f on %d samples (rows = truth, columns = prediction):",
                        validation.accuracy ?? .nan, validation.sampleCount))
                var table = TextTable(["truth \\ predicted"] + model.classes.map(\.rawValue))
                for (k, row) in validation.confusionMatrix.enumerated() {
                    table.append([model.classes[k].rawValue] + row.map(String.init))
                }
                lines.append(table.render())
            } else {
                lines.append("validation: no samples")
            }
            return lines.joined(separator: "\n")
        }
    }
}
