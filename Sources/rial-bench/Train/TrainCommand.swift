import ArgumentParser
import Foundation
import RialCodecs
import RialDetection
import RialEval

extension TextureHoldOut: ExpressibleByArgument {}

/// `rial-bench train`: fit the learned detection methods on labelled datasets.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the learned detection methods (texture/1 to texture/4) on labelled datasets.",
        subcommands: [Texture.self]
    )
}

extension TrainCommand {
    /// `rial-bench train texture --dataset MANIFEST ... --out FILE`.
    struct Texture: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Train the texture/1, texture/2, texture/3 or texture/4 classifier and write its model file.",
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

                Real photos (e.g. datasets/real-dev/manifest.json, alone or with synthetic \
                manifests): --hold-out source validates leave-one-source-out (one fold per \
                `source:OWNER/NAME` tag; samples without one, such as synthetic captures, are \
                always fitted on), --hold-out group by group K-fold (--folds); both pool the \
                training and validation splits, keep every group on one side of each fold, print \
                accuracy and the real-vs-attack AUC of p(real_scene) per held-out fold, record them \
                in the model (cross_validation), and fit the written model on every pooled sample. \
                The generic `screen` label (a photographed screen of unknown panel kind) is skipped \
                unless --screen-class names the screen class to learn it as (lcd_screen for real-dev).

                --method texture/2 trains the texture/2 model instead (its resolution-normalised \
                features, Texture2Features; the same regression and model file format with \
                feature_set_version 2; --swift-out then writes \
                Sources/RialDetection/Texture2/Texture2Model+Default.swift). With --hold-out, the \
                summary also gives per held-out fold the AUC and the APCER at BPCER 5% with \
                cluster-bootstrap intervals over groups; --fold-models-out DIR writes each fold's \
                model as DIR/<held-out>.json ('/' in a source name becomes '+') and --scores-out \
                FILE the out-of-fold scores as CSV (fold, manifest, id, group, label, score). \
                --method texture/3 likewise (Texture3Features: texture/2's plus a layout feature; \
                feature_set_version 3; Sources/RialDetection/Texture3/Texture3Model+Default.swift), \
                and --method texture/4 (Texture4Features: texture/3's plus the cues of moire/2 and \
                artifacts/2, computed with their compiled-in constants; feature_set_version 4; \
                Sources/RialDetection/Texture4/Texture4Model+Default.swift).
                """)

        @Option(help: "A dataset manifest (repeatable).")
        var dataset: [String] = []

        @Option(help: "The method to train: texture/1, texture/2, texture/3 or texture/4.")
        var method: String = "texture/1"

        @Option(help: "With --hold-out: write each fold's model to this folder as <held-out>.json.")
        var foldModelsOut: String?

        @Option(help: "With --hold-out: write the out-of-fold scores as CSV.")
        var scoresOut: String?

        @Option(help: "Where to write the model JSON.")
        var out: String

        @Option(help: "Seed of the weight initialisation.")
        var seed: UInt64 = 1

        @Option(help: "Split to fit on (repeatable; default: train).")
        var trainSplit: [DatasetSplit] = []

        @Option(help: "Split to validate on (repeatable; default: val).")
        var valSplit: [DatasetSplit] = []

        @Option(
            help:
                "How to validate: split (fit on --train-split, validate on --val-split), group (group K-fold) or source (leave one source out)."
        )
        var holdOut: TextureHoldOut = .split

        @Option(help: "Folds of --hold-out group.")
        var folds: Int = 5

        @Option(
            help:
                "Class the generic `screen` label is learned as: lcd_screen, oled_screen, or none (skip; real-dev needs lcd_screen or oled_screen)."
        )
        var screenClass: String = "none"

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
            if featureSetVersion == nil {
                throw ValidationError("--method must be texture/1, texture/2, texture/3 or texture/4, got '\(method)'")
            }
            if holdOut == .split && (foldModelsOut != nil || scoresOut != nil) {
                throw ValidationError("--fold-models-out and --scores-out need --hold-out source or group")
            }
            if holdOut == .group && folds < 2 { throw ValidationError("--folds must be >= 2, got \(folds)") }
            if screenClass != "none" && !(TextureClass(rawValue: screenClass)?.isScreen ?? false) {
                throw ValidationError("--screen-class must be lcd_screen, oled_screen or none, got '\(screenClass)'")
            }
            let train = trainSplit.isEmpty ? [DatasetSplit.train] : trainSplit
            if let overlap = train.first(where: { (valSplit.isEmpty ? [.val] : valSplit).contains($0) }) {
                throw ValidationError("split '\(overlap.rawValue)' cannot be both a training and a validation split")
            }
        }

        /// The feature set of `--method`; nil for another method.
        var featureSetVersion: Int? {
            switch method {
            case MethodIdentifier.textureV1.description: TextureFeatures.version
            case MethodIdentifier.textureV2.description: Texture2Features.version
            case MethodIdentifier.textureV3.description: Texture3Features.version
            case MethodIdentifier.textureV4.description: Texture4Features.version
            default: nil
            }
        }

        func run() throws {
            var options = TextureTrainer.Options()
            options.featureSetVersion = featureSetVersion ?? TextureFeatures.version
            options.trainSplits = trainSplit.isEmpty ? [.train] : trainSplit
            options.valSplits = valSplit.isEmpty ? [.val] : valSplit
            options.seed = seed
            options.jobs = jobs.count
            options.l2 = l2
            options.modelID = modelId
            options.tool = "rial-bench \(RialBenchVersion.string)"
            options.screenClass = TextureClass(rawValue: screenClass)
            if holdOut != .split {
                // Cross-validation pools both splits; the written model is fitted on all of them.
                options.trainSplits += options.valSplits
                options.valSplits = []
            }
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
            var model: TextureModel
            do {
                model = try trainer.fit(collection)
            } catch {
                throw inputError(error)
            }
            if holdOut != .split {
                let folds = TextureCrossValidation.folds(
                    of: collection.train, by: holdOut, folds: self.folds, seed: seed)
                guard !folds.isEmpty else {
                    throw CLIError.badInput(
                        "\(dataset.joined(separator: ", ")): no sample carries a `source:OWNER/NAME` tag to hold out")
                }
                let outcome: TextureCrossValidation.Outcome
                do {
                    let progress = ProgressReporter.Deferred(label: "held-out folds")
                    outcome = try TextureCrossValidation.run(
                        trainer, examples: collection.train, folds: folds, final: model
                    ) { done, total in progress.update(done, of: total) }
                } catch {
                    throw inputError(error)
                }
                model.provenance.validation = outcome.pooled
                model.provenance.valClassCounts = outcome.pooledClassCounts
                model.provenance.crossValidation = .init(by: holdOut.rawValue, folds: outcome.folds)
                Terminal.out(Self.crossValidationSummary(outcome, by: holdOut))
                Terminal.out(Self.foldMetricsSummary(outcome, folds: folds, examples: collection.train))
                if let foldModelsOut {
                    for (name, foldModel) in outcome.foldModels {
                        var foldModel = foldModel
                        foldModel.modelID = "\(modelId)-without-\(Self.fileName(name))"
                        let path = URL(fileURLWithPath: foldModelsOut)
                            .appendingPathComponent(Self.fileName(name) + ".json").path
                        do {
                            try write(try foldModel.canonicalJSON(), to: path)
                        } catch let error as TextureModelError {
                            throw CLIError.internalError("\(path): \(error.description)")
                        }
                    }
                    Terminal.out("wrote \(outcome.foldModels.count) fold models to \(foldModelsOut)")
                }
                if let scoresOut {
                    try write(
                        Data(Self.scoresCSV(outcome, folds: folds, examples: collection.train).utf8), to: scoresOut)
                }
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

        static func crossValidationSummary(_ outcome: TextureCrossValidation.Outcome, by: TextureHoldOut) -> String {
            func f(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "-" }
            var table = TextTable(["held out", "samples", "labels", "trained on", "accuracy", "AUC real vs attack"])
            for fold in outcome.folds {
                table.append([
                    fold.heldOut, String(fold.heldOutCount),
                    fold.labelCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                    String(fold.trainCount), f(fold.accuracy), f(fold.auc),
                ])
            }
            table.append([
                "pooled", String(outcome.heldOut.samples.count), "", "", f(outcome.heldOut.accuracy),
                f(outcome.heldOut.realVersusAttackAUC),
            ])
            return [
                "",
                by == .source
                    ? "leave one source out (no source or group both fitted on and held out; arg-max accuracy):"
                    : "group K-fold (no group both fitted on and held out; arg-max accuracy):",
                table.render(),
            ].joined(separator: "\n")
        }

        /// A fold name as a file name: `/` becomes `+`, as the dataset folders name sources.
        static func fileName(_ fold: String) -> String {
            fold.replacingOccurrences(of: "/", with: "+").replacingOccurrences(of: " ", with: "-")
        }

        /// Per fold: AUC of p(real_scene) and APCER at BPCER 5% (the threshold taken on the
        /// fold's own held-out scores) with 95% cluster-bootstrap intervals over groups
        /// (1000 resamples, seed 42; no interval for a fold of one group).
        static func foldMetricsSummary(
            _ outcome: TextureCrossValidation.Outcome, folds: [TextureCrossValidation.Fold],
            examples: [TextureExample]
        ) -> String {
            func f(_ v: Double) -> String { String(format: "%.3f", v) }
            func ci(_ c: ConfidenceInterval?) -> String {
                guard let c, c.lower.isFinite, c.upper.isFinite else { return "" }
                return " [\(f(c.lower)), \(f(c.upper))]"
            }
            var table = TextTable(["held out", "real", "attacks", "groups", "AUC", "APCER @ BPCER 5%"])
            var all: [(TextureEvaluation.SampleOutcome, String)] = []
            func metrics(_ rows: [(TextureEvaluation.SampleOutcome, String)]) -> HeldOutMetrics? {
                let real = rows.filter { $0.0.label.isBonaFide }.count
                guard real > 0, real < rows.count else { return nil }
                let groups = Set(rows.map(\.1)).count
                return HeldOutMetrics(
                    scores: rows.map(\.0.score), accepted: rows.map { $0.0.score >= 0.5 },
                    bonaFide: rows.map(\.0.label.isBonaFide), species: rows.map { _ in "attack" },
                    groups: rows.map(\.1), targetBPCER: 0.05,
                    settings: BootstrapSettings(resamples: groups > 1 ? 1000 : 0))
            }
            for (k, fold) in folds.enumerated() where k < outcome.foldSamples.count {
                let rows = zip(outcome.foldSamples[k], fold.heldOut).map { ($0, examples[$1].groupKey) }
                all += rows
                let real = rows.filter { $0.0.label.isBonaFide }.count
                guard let m = metrics(rows) else {
                    table.append([fold.name, String(real), String(rows.count - real), "", "-", "-"])
                    continue
                }
                table.append([
                    fold.name, String(m.bonaFide), String(m.attacks), String(m.clusters), f(m.auc) + ci(m.aucCI),
                    f(m.apcerAtBPCER.apcerPooled) + ci(m.apcerAtBPCER.apcerMaxCI),
                ])
            }
            if let m = metrics(all) {
                table.append([
                    "pooled", String(m.bonaFide), String(m.attacks), String(m.clusters), f(m.auc) + ci(m.aucCI),
                    f(m.apcerAtBPCER.apcerPooled) + ci(m.apcerAtBPCER.apcerMaxCI),
                ])
            }
            return [
                "", "held-out AUC and APCER at BPCER 5% (95% cluster-bootstrap intervals over groups):",
                table.render(),
            ].joined(separator: "\n")
        }

        /// The out-of-fold scores: fold, manifest, id, group, label, score (p(real_scene)).
        static func scoresCSV(
            _ outcome: TextureCrossValidation.Outcome, folds: [TextureCrossValidation.Fold],
            examples: [TextureExample]
        ) -> String {
            var lines = ["fold,manifest,id,group,label,score"]
            for (k, fold) in folds.enumerated() where k < outcome.foldSamples.count {
                for (sample, index) in zip(outcome.foldSamples[k], fold.heldOut) {
                    let e = examples[index]
                    lines.append(
                        [
                            CSVExport.text(fold.name), CSVExport.text(e.manifest), CSVExport.text(e.id),
                            CSVExport.text(e.group ?? ""), sample.label.rawValue, String(sample.score),
                        ].joined(separator: ","))
                }
            }
            return lines.joined(separator: "\n") + "\n"
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
            let names =
                examples.first.flatMap { e in
                    [TextureFeatures.names, Texture2Features.names, Texture3Features.names, Texture4Features.names]
                        .first {
                            $0.count == e.features.count
                        }
                } ?? TextureFeatures.names
            var lines = [(["manifest", "id", "split", "label", "group", "source"] + names).joined(separator: ",")]
            for e in examples {
                lines.append(
                    ([
                        CSVExport.text(e.manifest), CSVExport.text(e.id), e.split.rawValue, e.label.rawValue,
                        CSVExport.text(e.group ?? ""), CSVExport.text(e.source ?? ""),
                    ]
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
                        format: "validation accuracy %.3f on %d %@samples (rows = truth, columns = prediction):",
                        validation.accuracy ?? .nan, validation.sampleCount,
                        p.crossValidation == nil ? "" : "held-out "))
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
